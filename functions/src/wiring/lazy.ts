/**
 * The wiring is built from the environment on first use, once per process (per Lambda container),
 * so a function builds only what its calls need. resetDeps() drops everything built, so the next
 * use builds it again: the local server calls it after setting the environment, tests after
 * changing it.
 */
const resetHooks: (() => void)[] = [];

/** Runs `hook` at every resetDeps() (for state that is not a lazy() value, e.g. a cached secret). */
export function onResetDeps(hook: () => void): void {
  resetHooks.push(hook);
}

/** Drops every value built by lazy() (and runs the onResetDeps hooks), in the order they were declared. */
export function resetDeps(): void {
  for (const reset of resetHooks) reset();
}

/**
 * A getter that builds its value on first call and returns the same value after, until
 * resetDeps(); `dispose` then releases what the old value holds (timers, say).
 */
export function lazy<T>(build: () => T, dispose?: (value: T) => void): () => T {
  let built: { value: T } | undefined;
  onResetDeps(() => {
    if (built && dispose) dispose(built.value);
    built = undefined;
  });
  return () => (built ??= { value: build() }).value;
}
