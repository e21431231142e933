import { cloneElement, type ReactElement } from 'react';

/**
 * recharts for component tests (`vi.mock('recharts', (original) => fixedSizeRecharts(original))`): jsdom has no
 * layout, so ResponsiveContainer gives its chart a fixed 600×240 instead of measuring; `onContainer` is told the
 * initial size each container was given (its `initialDimension`), in render order.
 */
export async function fixedSizeRecharts(
  importOriginal: <T>() => Promise<T>,
  onContainer?: (initialDimension: unknown) => void,
) {
  const actual = await importOriginal<typeof import('recharts')>();
  return {
    ...actual,
    ResponsiveContainer: ({
      children,
      initialDimension,
    }: {
      children: ReactElement<{ width?: number; height?: number }>;
      initialDimension?: unknown;
    }) => {
      onContainer?.(initialDimension);
      return (
        <div className="recharts-responsive-container" style={{ width: 600, height: 240 }}>
          {cloneElement(children, { width: 600, height: 240 })}
        </div>
      );
    },
  };
}
