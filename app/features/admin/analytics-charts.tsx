import { useTranslation } from "~/i18n/react";
import { useFormat } from "~/ui/use-format";

const WIDTH = 600;
const HEIGHT = 200;
/** Label size in the drawing's units: the drawing is scaled to the page's width (about half at 360 px). */
const LABEL = 22;

/** A share as the pages show it: a percentage with one decimal ("42.5 %" in the reader's language). */
export function usePercent() {
  const { t } = useTranslation();
  const format = useFormat();
  return (share: number) =>
    t("admin.analytics.percent", { value: format.number(Math.round(share * 1000) / 10) });
}

/** Whole minutes and seconds of reading, e.g. "4 min 05 s". */
export function useReadingTime() {
  const { t } = useTranslation();
  return (seconds: number) =>
    t("admin.analytics.duration", {
      minutes: Math.floor(seconds / 60),
      seconds: String(seconds % 60).padStart(2, "0"),
    });
}

/** Chapters the funnel's table names: the first, powers of ten and their halves and doubles, and the last. */
function milestones(count: number): number[] {
  const marks = new Set([0, count - 1]);
  for (let step = 1; step < count; step *= 10)
    for (const mark of [step, 2 * step, 5 * step]) if (mark - 1 < count) marks.add(mark - 1);
  return [...marks].filter((index) => index >= 0).sort((a, b) => a - b);
}

/**
 * The funnel as a line: for each chapter (left to right, by number), the share of the first chapter's readers
 * who started it. Its text alternative is the label and a table at milestone chapters; every chapter's figure
 * is in the analytics table.
 */
export function FunnelChart({
  funnel,
  base,
}: {
  funnel: { number: number; reached: number }[];
  base: number;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const percent = usePercent();
  const last = funnel.at(-1);
  if (!base || !last) return <p className="text-muted">{t("admin.analytics.noFunnel")}</p>;
  const x = (index: number) => (funnel.length > 1 ? (index / (funnel.length - 1)) * WIDTH : WIDTH / 2);
  const y = (reached: number) => HEIGHT - (reached / base) * HEIGHT;
  const points = funnel.map((point, index) => `${x(index).toFixed(1)},${y(point.reached).toFixed(1)}`);
  const summary = t("admin.analytics.funnelSummary", {
    count: base,
    readers: format.number(base),
    reached: format.number(last.reached),
    number: last.number,
  });
  return (
    <figure className="flex flex-col gap-3">
      <svg
        role="img"
        aria-label={summary}
        viewBox={`-4 -4 ${WIDTH + 8} ${HEIGHT + 8}`}
        className="h-auto w-full max-w-2xl"
        data-testid="funnel-chart"
      >
        <line
          x1={0}
          y1={HEIGHT}
          x2={WIDTH}
          y2={HEIGHT}
          className="stroke-[color:var(--line)]"
          strokeWidth={1}
        />
        <line x1={0} y1={0} x2={0} y2={HEIGHT} className="stroke-[color:var(--line)]" strokeWidth={1} />
        <polyline points={points.join(" ")} fill="none" className="stroke-primary" strokeWidth={2} />
      </svg>
      <figcaption aria-hidden="true" className="text-sm text-muted">
        {summary}
      </figcaption>
      <div className="overflow-x-auto">
        <table className="text-left text-sm" data-testid="funnel-table">
          <caption className="text-left text-sm text-muted">{t("admin.analytics.funnelTable")}</caption>
          <thead>
            <tr className="border-b border-line">
              <th scope="col" className="py-1 pr-4">
                {t("admin.analytics.chapter")}
              </th>
              <th scope="col" className="py-1 pr-4 text-right">
                {t("admin.analytics.reached")}
              </th>
              <th scope="col" className="py-1 text-right">
                {t("admin.analytics.ofFirst")}
              </th>
            </tr>
          </thead>
          <tbody>
            {milestones(funnel.length).map((index) => {
              const point = funnel[index];
              if (!point) return null;
              return (
                <tr key={point.number} className="border-b border-line">
                  <th scope="row" className="py-1 pr-4 font-normal">
                    {point.number}
                  </th>
                  <td className="py-1 pr-4 text-right">{format.number(point.reached)}</td>
                  <td className="py-1 text-right">{percent(point.reached / base)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** A tenth's name: "0–9 %" … "90–97 %" (a reader from 98 % on has finished). */
export function useTenthLabel() {
  const { t } = useTranslation();
  return (tenth: number, finishedAt: number) =>
    t("admin.analytics.tenth", { from: tenth * 10, to: Math.min(tenth * 10 + 9, finishedAt - 1) });
}

/** Where the readers who did not finish stopped: a bar per tenth, with the same figures in a table. */
export function DropOffChart({ dropOff, finishedAt }: { dropOff: number[]; finishedAt: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const tenthLabel = useTenthLabel();
  const stopped = dropOff.reduce((sum, count) => sum + count, 0);
  const most = Math.max(1, ...dropOff);
  const band = WIDTH / dropOff.length;
  const summary = t("admin.analytics.dropOffSummary", { count: stopped, readers: format.number(stopped) });
  return (
    <figure className="flex flex-col gap-3">
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 ${-LABEL - 4} ${WIDTH} ${HEIGHT + 2 * LABEL + 12}`}
        className="h-auto w-full max-w-2xl"
        data-testid="drop-off-chart"
      >
        {dropOff.map((count, tenth) => {
          const height = (count / most) * HEIGHT;
          return (
            <g key={tenth}>
              <rect
                x={tenth * band + 4}
                y={HEIGHT - height}
                width={band - 8}
                height={height}
                className="fill-primary"
              />
              <text
                x={tenth * band + band / 2}
                y={HEIGHT - height - 4}
                textAnchor="middle"
                fontSize={LABEL}
                className="fill-current"
              >
                {format.number(count)}
              </text>
              <text
                x={tenth * band + band / 2}
                y={HEIGHT + LABEL + 4}
                textAnchor="middle"
                fontSize={LABEL}
                className="fill-current"
              >
                {tenth * 10}
              </text>
            </g>
          );
        })}
        <line
          x1={0}
          y1={HEIGHT}
          x2={WIDTH}
          y2={HEIGHT}
          className="stroke-[color:var(--line)]"
          strokeWidth={1}
        />
      </svg>
      <figcaption aria-hidden="true" className="text-sm text-muted">
        {summary}
      </figcaption>
      <div className="overflow-x-auto">
        <table className="text-left text-sm" data-testid="drop-off-table">
          <caption className="text-left text-sm text-muted">{t("admin.analytics.dropOffTable")}</caption>
          <thead>
            <tr className="border-b border-line">
              <th scope="col" className="py-1 pr-4">
                {t("admin.analytics.stoppedAt")}
              </th>
              <th scope="col" className="py-1 text-right">
                {t("admin.analytics.readers")}
              </th>
            </tr>
          </thead>
          <tbody>
            {dropOff.map((count, tenth) => (
              <tr key={tenth} className="border-b border-line">
                <th scope="row" className="py-1 pr-4 font-normal">
                  {tenthLabel(tenth, finishedAt)}
                </th>
                <td className="py-1 text-right">{format.number(count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
