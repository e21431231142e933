/** Leaving the app for Google's consent page; one mutable object so tests can replace it (jsdom cannot navigate). */
export const browser = {
  assign: (url: string) => window.location.assign(url),
};
