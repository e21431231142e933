import { dashboardFromSummary, needsAttention, type DashboardAnswer, type DashboardSummary } from '@app/shared';
import { channelIds } from '../channels/ids.js';
import type { ArticleRecord } from './articles.js';

export interface DashboardDeps {
  /** The owner's summary item (adapters/dynamo/summary-store.ts): one read, whatever the number of articles. */
  summary(userId: string): Promise<DashboardSummary>;
  /** The owner's articles not published on both platforms (the Schedule page's list, read through its index). */
  unpublished(userId: string): Promise<ArticleRecord[]>;
  now?: () => Date;
}

/**
 * The dashboard's cards (docs/product.md, Dashboard) from the owner's summary and unpublished articles:
 * equal to counting every article (shared/src/dashboard-summary.ts), for a cost that does not grow with
 * the number of published ones.
 */
export class DashboardService {
  constructor(private readonly deps: DashboardDeps) {}

  async cards(userId: string, timeZone: string): Promise<DashboardAnswer> {
    const [summary, unpublished] = await Promise.all([this.deps.summary(userId), this.deps.unpublished(userId)]);
    // Counted after both reads: a scheduled time that has passed meanwhile counts as passed.
    const now = this.deps.now?.() ?? new Date();
    return {
      timeZone,
      // A bar and a series per channel of the registry (each channel's own count: shared/src/dashboard-summary.ts).
      ...dashboardFromSummary(summary, unpublished, timeZone, now, channelIds),
      // Articles published everywhere are not listed: what needs attention is on the Schedule page.
      attention: needsAttention(unpublished),
    };
  }
}
