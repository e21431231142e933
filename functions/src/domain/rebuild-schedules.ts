import { isPublished, scheduledVersions } from '@app/shared';
import type { ArticleRecord } from './articles.js';
import type { ArticleStore, ScheduledRun, Scheduler } from './ports.js';

/** The calendar's far end: every entry after `from` is read (the store reads the entries' range only). */
const CALENDAR_END = '9999-12-31T23:59:59.999Z';

export interface RebuildSchedulesDeps {
  /** Every account (the admin list: one query of the users index). */
  userIds(): Promise<string[]>;
  /** The owner's articles with a calendar entry in a range (a query of the owner's calendar entries). */
  articles: Pick<ArticleStore, 'calendarRange'>;
  /** Creates a run's schedule, or moves it when it exists: making it again changes nothing. */
  scheduler: Pick<Scheduler, 'schedule'>;
  /** Each run as it is (re)made, or fails to be. */
  onRun?: (run: ScheduledRun, error?: unknown) => void;
}

export interface RebuildResult {
  users: number;
  /** Runs whose schedule was made (or was there already). */
  scheduled: number;
  /** Runs whose schedule could not be made (onRun has each error); a second rebuild tries them again. */
  failed: number;
}

/** The runs an article still has ahead: each version scheduled at or after `from` and not published there. */
export function runsAhead(userId: string, article: ArticleRecord, from: string): ScheduledRun[] {
  return scheduledVersions(article).flatMap(({ version: platform, at: scheduledFor }) => {
    if (scheduledFor < from || isPublished(article, platform)) return [];
    return [{ userId, articleId: article.id, platform, scheduledFor }];
  });
}

/**
 * Makes every scheduled run from `from` on again from the table (the schedule group lost or emptied: nothing else
 * rebuilds it; docs/operations.md, Rebuilding the schedules). Reads the calendar entries (each owner's range from
 * `from` on, one query each) rather than scanning the articles, and makes each run's schedule with the same
 * create-or-move as scheduling, so it is idempotent and safe while the app runs: a run already there is moved onto
 * the same time; one whose e-mail went out already (a `from` in the past) finds it sent and sends nothing.
 */
export async function rebuildSchedules(deps: RebuildSchedulesDeps, from: Date): Promise<RebuildResult> {
  const since = from.toISOString();
  const result: RebuildResult = { users: 0, scheduled: 0, failed: 0 };
  for (const userId of await deps.userIds()) {
    result.users++;
    for (const article of await deps.articles.calendarRange(userId, since, CALENDAR_END)) {
      for (const run of runsAhead(userId, article, since)) {
        try {
          await deps.scheduler.schedule(run);
          result.scheduled++;
          deps.onRun?.(run);
        } catch (err) {
          result.failed++;
          deps.onRun?.(run, err);
        }
      }
    }
  }
  return result;
}
