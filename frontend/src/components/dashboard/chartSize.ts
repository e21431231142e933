import { createContext } from 'react';

/**
 * The width of a chart's place, measured on its placeholder before the chart is drawn (pages/Dashboard.tsx,
 * DeferredChart), so that charts.tsx draws the chart at its size in its first render. A module of its own: the
 * Dashboard page reads it without loading the chart code.
 */
export const ChartWidth = createContext<number | undefined>(undefined);
