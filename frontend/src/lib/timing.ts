/**
 * Intervals of the create flow and the settings panels. One mutable object so tests can shorten them; the values are the
 * product's (docs/product.md: inline notifications 3 s plus a 300 ms fade).
 */
export const timing = {
  /** GET /api/articles/{id} while the drafts are written in the background. */
  articlePollMs: 1500,
  /** GET /api/image/{id} while an image is generated. */
  imagePollMs: 1500,
  /** Give up waiting for an image after this long (the worker keeps going; a later look may find it). */
  imageTimeoutMs: 3 * 60 * 1000,
  /** Inline notifications on the create and schedule screens. */
  noticeMs: 3000,
  noticeFadeMs: 300,
  /** "Copied!" after a copy button is pressed (docs/product.md, Settings: copy feedback 2 s). */
  copyFeedbackMs: 2000,
  /** The generated-content editors save what was typed once typing has paused this long (and on blur or leaving). */
  autosaveMs: 1000,
  /** Status checks while an OAuth popup (a channel's, Google's) is open, and checks whether it closed. */
  oauthPopupPollMs: 1500,
  /** An open editor's comment threads are read again this often while the tab is shown (as the Schedule page's list). */
  commentsRefreshMs: 15_000,
};
