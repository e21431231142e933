/**
 * The texts of the Schedule card's posting-mode choice (PostingModeChoice.tsx). Apart from the panel's texts
 * (messages.ts): the Schedule page carries the choice, not the settings panel.
 */
export const POSTING_MODE_LABELS = { personal: 'Personal Profile', company: 'Business Page' } as const;
export const PostingModeMessages = {
  /** "Error updating LinkedIn mode: {message}" */
  modeError: (message: string) => `Error updating LinkedIn mode: ${message}`,
  modeFailed: 'Failed to update LinkedIn posting mode',
} as const;
