import {
  lazy,
  startTransition,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { RUN_FAILURES_FIXED_IN_SETTINGS, STATUS_LABELS, ATTENTION_SHOWN } from '@app/shared';
import type { ApiResponses } from '@app/shared/api';
import { dashboardCall, rememberTimeZone } from '../api/startCalls';
import { channelById } from '../channels/registry';
import { ChartWidth } from '../components/dashboard/chartSize';
import { TrendsLegend } from '../components/dashboard/trendsLegend';
import { LoadFailed } from '../components/LoadFailed';
import { PageHeader } from '../components/PageHeader';
import { Spinner } from '../components/Spinner';
import { ARTICLE_LISTS_KEY } from '../hooks/useArticleLists';
import { useCan } from '../hooks/useWorkspaces';
import { useUserTimeZone } from '../lib/userTime';
import '../styles/dashboard.css';

// recharts is imported only by components/dashboard/charts, loaded here on demand: the chart
// library stays out of every other page's JavaScript (docs/testing.md, Performance budgets).
const loadCharts = () => import('../components/dashboard/charts');
const TrendsChart = lazy(() => loadCharts().then((m) => ({ default: m.TrendsChart })));
const DistributionChart = lazy(() => loadCharts().then((m) => ({ default: m.DistributionChart })));
const KeywordsChart = lazy(() => loadCharts().then((m) => ({ default: m.KeywordsChart })));

export const DashboardMessages = {
  loadFailed: 'Failed to fetch articles. Please try again later.',
} as const;

/** The donut's colours, repeated in its legend (same order as charts.tsx KEYWORD_COLOURS). */
const KEYWORD_SWATCHES = ['var(--chart-1)', 'var(--chart-2)', 'var(--chart-3)', 'var(--chart-4)', 'var(--chart-5)'];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** "a", "a and b", "a, b and c". */
const listed = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? '');

interface DashboardCardProps {
  title: string;
  action?: ReactNode;
  className?: string;
  children: ReactNode;
}

function DashboardCard({ title, action, className = '', children }: DashboardCardProps) {
  const titleId = useId();
  return (
    <section className={`card dashboard-card ${className}`.trim()} aria-labelledby={titleId}>
      <header className="dashboard-card__header">
        <h2 id={titleId} className="card-title">
          {title}
        </h2>
        {action}
      </header>
      {children}
    </section>
  );
}

function ChartFallback({ height }: { height: number }) {
  return (
    <div className="chart-frame chart-frame--loading" style={{ height }}>
      <Spinner size="sm" label="Loading chart" />
    </div>
  );
}

/**
 * Calls `run` once what is on screen now has been painted and the page has a moment free: the next frame, a task
 * after it, then an idle period (at most `IDLE_WAIT_MS` later). A callback of the frame itself still comes before
 * the frame reaches the screen, so a request it makes counts towards that paint on a throttled phone. Returns
 * a function that cancels what has not run yet.
 */
function afterPaint(run: () => void): () => void {
  let frame: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  frame = requestAnimationFrame(() => {
    frame = undefined;
    timer = setTimeout(() => {
      timer = undefined;
      if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(run, { timeout: IDLE_WAIT_MS });
      else timer = setTimeout(run);
    });
  });
  return () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    clearTimeout(timer);
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}
/** The longest a chart waits for an idle moment once the cards have painted. */
const IDLE_WAIT_MS = 1000;

/** The charts' turns: each is drawn once the one before it is (or has left the page), never two in one task. */
let lastTurn: Promise<void> = Promise.resolve();
function takeTurn(): { ready: Promise<void>; done: () => void } {
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const ready = lastTurn;
  lastTurn = lastTurn.then(() => mine);
  return { ready, done };
}

/** Calls `onDrawn` once what is before it in the same Suspense boundary has been put on the page. */
function Drawn({ onDrawn }: { onDrawn: () => void }) {
  useEffect(onDrawn, [onDrawn]);
  return null;
}

/**
 * A chart drawn after the cards: its place is held at its height (nothing moves when it comes), and its code is
 * fetched and it is drawn only once the cards and their figures are on screen and its place is on screen or near
 * it, one chart at a time, each in a task of its own after the one before it has painted. Drawing the three charts
 * (recharts lays out and measures their text) with the cards held their first paint back for seconds on a phone;
 * the chart code fetched before that paint (~95 kB) made the paint wait for it on a slow network; two charts shown
 * in the same moment were drawn in one task (React renders pending transitions together). Below the fold a chart
 * waits for the scroll (docs/testing.md, Performance budgets: Lighthouse on the dashboard).
 */
function DeferredChart({ height, below, children }: { height: number; below?: ReactNode; children: ReactNode }) {
  const [shown, setShown] = useState(false);
  const [width, setWidth] = useState<number>();
  const place = useRef<HTMLDivElement>(null);
  const turn = useRef<() => void>(undefined);
  const drawn = useCallback(() => turn.current?.(), []);
  useEffect(() => {
    let cancel: (() => void) | undefined;
    let left = false;
    // After the paint: a task of its own, as a transition React may interrupt. The chart is drawn at its place's
    // width from its first render (charts.tsx, ChartFrame): measured after it is shown instead, it was drawn whole
    // in the measurement's update, which React does not interrupt (one ~700 ms task on Lighthouse's phone).
    const show = () => {
      const { ready, done } = takeTurn();
      turn.current = done;
      void ready.then(() => {
        if (left) return;
        cancel = afterPaint(() =>
          startTransition(() => {
            setWidth(Math.round(place.current?.getBoundingClientRect().width ?? 0) || undefined);
            setShown(true);
          }),
        );
      });
    };
    const leave = () => {
      left = true;
      cancel?.();
      turn.current?.();
    };
    if (typeof IntersectionObserver === 'undefined') {
      show();
      return leave;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        show();
      },
      { rootMargin: '200px 0px' },
    );
    observer.observe(place.current!);
    return () => {
      observer.disconnect();
      leave();
    };
  }, []);
  // What the chart draws under its frame (a legend) is in its placeholder too, so that nothing moves when it comes.
  const fallback = (
    <>
      <ChartFallback height={height} />
      {below}
    </>
  );
  return shown ? (
    <ChartWidth.Provider value={width}>
      <Suspense fallback={fallback}>
        {children}
        <Drawn onDrawn={drawn} />
      </Suspense>
    </ChartWidth.Provider>
  ) : (
    <div ref={place}>{fallback}</div>
  );
}

/**
 * The dashboard's one call: the cards counted by the server from the owner's summary (GET /api/dashboard),
 * in the weeks of the zone this page shows. Under the lists' key, so that any change to an article refreshes it.
 */
function useDashboard(timeZone: string) {
  // The zone asked in, for the call main.tsx starts when the dashboard is opened again (api/startCalls.ts).
  useEffect(() => rememberTimeZone(timeZone), [timeZone]);
  return useQuery({
    queryKey: [...ARTICLE_LISTS_KEY, 'dashboard', timeZone],
    // The call main.tsx started with the app when the page was opened directly (api/startCalls.ts).
    queryFn: () => dashboardCall(timeZone),
    staleTime: 0,
  });
}

/** docs/product.md (Dashboard): four cards counted over all the user's articles with the shared rules. */
export default function DashboardPage() {
  // Weeks are the user's own (Monday to Sunday where they live), not UTC's nor the browser's.
  const timeZone = useUserTimeZone();
  const query = useDashboard(timeZone);
  // The cards (and their charts) render as a transition, in slices that leave the page responsive, not
  // in one long task when the answer arrives.
  const stats = useDeferredValue(query.data);

  return (
    <div className="page dashboard">
      <PageHeader title="Dashboard" description="How your publishing is going, from all your articles." />
      {query.isPending || (query.isSuccess && !stats) ? (
        <div className="dashboard__state">
          <Spinner label="Loading dashboard" />
          <span>Loading dashboard...</span>
        </div>
      ) : query.isError ? (
        <LoadFailed text={DashboardMessages.loadFailed} query={query} />
      ) : (
        stats && <DashboardCards stats={stats} />
      )}
    </div>
  );
}

function DashboardCards({ stats }: { stats: ApiResponses['dashboard.get'] }) {
  // Not for a reviewer, who cannot create (docs/product.md, Workspaces).
  const mayCreate = useCan()('articles.create');
  const { trends, distribution, keywords, status, total, timeZone } = stats;
  // A series and a bar per channel, as the answer lists them (the registry's order), named as the SPA names them; a
  // channel the SPA has no entry for is shown only once it has posts.
  const shown = distribution.bars.filter(
    ({ channel, count }) => channelById(channel) || count > 0 || trends.some((p) => (p.counts[channel] ?? 0) > 0),
  );
  const series = shown.map(({ channel }) => ({ channel, name: channelById(channel)?.label ?? channel }));
  const totals = series.map(({ channel, name }) =>
    plural(
      trends.reduce((sum, p) => sum + (p.counts[channel] ?? 0), 0),
      `${name} post`,
    ),
  );
  const first = trends[0]?.week ?? '';
  const last = trends[trends.length - 1]?.week ?? '';
  const trendsSummary = `${listed(totals)} published from ${first} to ${last} (weeks from Monday to Sunday, ${timeZone} time).`;
  const trendsLabel = `Publishing trends, area chart. ${trends
    .map((p) => `${p.week}: ${series.map(({ channel, name }) => `${name} ${p.counts[channel] ?? 0}`).join(', ')}`)
    .join('; ')}.`;
  const bars = shown.map((bar, i) => ({ channel: bar.channel, name: series[i]!.name, count: bar.count }));
  const distributionLabel = `Platform distribution, bar chart. ${bars
    .map((b) => `${b.name} ${b.count}`)
    .join(', ')}. Total ${distribution.total}.`;
  const keywordsLabel = `Top keywords${keywords.demo ? ' (demo data)' : ''}, donut chart. ${keywords.keywords
    .map((k) => `${k.keyword} ${k.count}`)
    .join(', ')}.`;
  // Articles whose last background run failed (drafting, an image, a scheduled e-mail): newest first.
  const attention = stats.attention;

  return (
    <div className="dashboard-grid">
      {attention.count > 0 && (
        <DashboardCard
          title="Needs attention"
          className="dashboard-card--wide dashboard-card--attention"
          action={
            <Link className="btn btn--secondary btn--sm" to="/schedule">
              Schedule
            </Link>
          }
        >
          <p className="dashboard-card__summary">
            {plural(attention.count, 'article')} could not be processed. Fix the cause, then try again.
          </p>
          <ul className="attention-list">
            {attention.articles.map((article) => (
              <li key={article.id} className="attention-list__item">
                <span className="attention-list__title">{article.title}</span>
                <span className="attention-list__message">{article.lastError.message}</span>
                {RUN_FAILURES_FIXED_IN_SETTINGS.has(article.lastError.code) ? (
                  <Link to="/settings">
                    Open Settings<span className="sr-only"> for {article.title}</span>
                  </Link>
                ) : (
                  <Link to={`/create?articleId=${encodeURIComponent(article.id)}`}>
                    Open<span className="sr-only"> {article.title}</span>
                  </Link>
                )}
              </li>
            ))}
          </ul>
          {attention.count > ATTENTION_SHOWN && (
            <p className="dashboard-card__note">
              {plural(attention.count - ATTENTION_SHOWN, 'more article')} on the <Link to="/schedule">Schedule</Link>{' '}
              page.
            </p>
          )}
        </DashboardCard>
      )}
      <DashboardCard
        title="Publishing Trends"
        className="dashboard-card--wide"
        action={
          <Link className="btn btn--secondary btn--sm" to="/schedule">
            Schedule
          </Link>
        }
      >
        <p className="dashboard-card__summary">{trendsSummary}</p>
        <DeferredChart height={240} below={<TrendsLegend series={series} />}>
          <TrendsChart data={trends} series={series} label={trendsLabel} />
        </DeferredChart>
      </DashboardCard>

      <DashboardCard
        title="Platform Distribution"
        action={
          // The product description named the target /create-article, which is not a route (any unknown path goes
          // to /dashboard, so the link would lead back here). It points at /create, the Create
          // Article screen that was meant.
          mayCreate ? (
            <Link className="btn btn--secondary btn--sm" to="/create">
              New Article
            </Link>
          ) : undefined
        }
      >
        <p className="dashboard-total">
          <span className="dashboard-total__value" data-testid="distribution-total">
            {distribution.total}
          </span>
          <span className="dashboard-total__label">
            published {distribution.total === 1 ? 'post' : 'posts'} in total
          </span>
        </p>
        <DeferredChart height={160}>
          <DistributionChart data={bars} label={distributionLabel} />
        </DeferredChart>
      </DashboardCard>

      <DashboardCard title="Top Keywords">
        {keywords.demo && (
          <p className="dashboard-card__note">
            <span className="badge">Demo data</span>
            <span>Add a keyword or tags to your articles to see your own.</span>
          </p>
        )}
        <div className="keywords">
          <div className="keywords__chart">
            <DeferredChart height={200}>
              <KeywordsChart data={keywords.keywords} label={keywordsLabel} />
            </DeferredChart>
          </div>
          <ol className="keywords__legend" aria-label="Top keywords">
            {keywords.keywords.map((k, i) => (
              <li key={k.keyword} className="keywords__item">
                <span
                  className="keywords__swatch"
                  style={{ background: KEYWORD_SWATCHES[i % KEYWORD_SWATCHES.length] }}
                  aria-hidden="true"
                />
                <span className="keywords__name">{k.keyword}</span>
                <span className="keywords__count">{k.count}</span>
              </li>
            ))}
          </ol>
        </div>
      </DashboardCard>

      <DashboardCard title="Content Status" className="dashboard-card--wide">
        <p className="dashboard-card__summary">{plural(total, 'article')} in total.</p>
        <dl className="status-stats">
          {status.map((s) => (
            <div key={s.status} className={`status-stat status-stat--${s.status}`}>
              <dt className="status-stat__label">{STATUS_LABELS[s.status]}</dt>
              <dd className="status-stat__value">
                <span className="status-stat__count">{s.count}</span>
                <span className="sr-only">{s.count === 1 ? ' article, ' : ' articles, '}</span>
                <span className="status-stat__percent">{s.percent}%</span>
                <span className="status-stat__bar" aria-hidden="true">
                  <span style={{ width: `${s.percent}%` }} />
                </span>
              </dd>
            </div>
          ))}
        </dl>
      </DashboardCard>
    </div>
  );
}
