import { scaleBand, scaleLinear } from "d3-scale";
import { useId } from "react";
import { useTranslation } from "~/i18n/react";

export type BarSeries = { name: string; values: number[]; tone: "primary" | "muted" };

const WIDTH = 640;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 8, bottom: 28, left: 48 };
/** How many category labels the axis shows at most (a 30-day chart labels every few days). */
const MAX_LABELS = 8;

const tones = { primary: "fill-primary", muted: "fill-muted" };

/**
 * A bar chart drawn as SVG for the author's dashboard: one bar per category and series, scaled by d3-scale,
 * with its title and description for screen readers and the same figures as a table under it (the text
 * alternative).
 * Static: nothing moves, so there is nothing to reduce for reduced motion.
 */
export function BarChart({
  title,
  description,
  categories,
  series,
  format,
  floor = 4,
}: {
  title: string;
  description: string;
  categories: string[];
  series: BarSeries[];
  format: (value: number) => string;
  /** The least top of the scale, so a chart of zeros and ones still has whole steps (cents: 400, $4). */
  floor?: number;
}) {
  const { t } = useTranslation();
  const id = useId();
  const max = Math.max(floor, ...series.flatMap((one) => one.values));
  const y = scaleLinear()
    .domain([0, max])
    .nice(4)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const x = scaleBand<number>()
    .domain(categories.map((_, index) => index))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.2);
  const inner = scaleBand<number>()
    .domain(series.map((_, index) => index))
    .range([0, x.bandwidth()])
    .padding(0.05);
  const every = Math.ceil(categories.length / MAX_LABELS);
  return (
    <figure className="flex flex-col gap-2">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full"
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {y
          .ticks(4)
          .filter(Number.isInteger)
          .map((tick) => (
            <g key={tick} className="text-muted">
              <line
                x1={MARGIN.left}
                x2={WIDTH - MARGIN.right}
                y1={y(tick)}
                y2={y(tick)}
                className="stroke-current opacity-30"
              />
              <text
                x={MARGIN.left - 6}
                y={y(tick)}
                dy="0.32em"
                textAnchor="end"
                className="fill-current text-[11px]"
              >
                {format(tick)}
              </text>
            </g>
          ))}
        {categories.map((category, index) => (
          <g key={category} transform={`translate(${x(index) ?? 0},0)`}>
            {series.map((one, which) => {
              const value = one.values[index] ?? 0;
              return (
                <rect
                  key={one.name}
                  x={inner(which)}
                  y={y(value)}
                  width={inner.bandwidth()}
                  height={Math.max(0, y(0) - y(value))}
                  className={tones[one.tone]}
                />
              );
            })}
            {index % every === 0 ? (
              <text
                x={x.bandwidth() / 2}
                y={HEIGHT - MARGIN.bottom + 16}
                textAnchor="middle"
                className="fill-current text-[11px] text-muted"
              >
                {category}
              </text>
            ) : null}
          </g>
        ))}
      </svg>
      {series.length > 1 ? (
        <figcaption className="flex flex-wrap gap-4 text-sm">
          {series.map((one) => (
            <span key={one.name} className="flex items-center gap-2">
              <svg viewBox="0 0 10 10" className="h-3 w-3" aria-hidden="true">
                <rect width="10" height="10" className={tones[one.tone]} />
              </svg>
              {one.name}
            </span>
          ))}
        </figcaption>
      ) : null}
      <details className="text-sm">
        <summary className="min-h-11 cursor-pointer py-2 underline">{t("admin.overview.asTable")}</summary>
        <div className="overflow-x-auto">
          <table className="w-full text-left">
            <caption className="sr-only">{title}</caption>
            <thead className="text-muted">
              <tr>
                <th scope="col" className="py-1 pr-3 font-normal">
                  {t("admin.overview.category")}
                </th>
                {series.map((one) => (
                  <th key={one.name} scope="col" className="py-1 pr-3 text-right font-normal">
                    {one.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {categories.map((category, index) => (
                <tr key={category} className="border-t border-line">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {category}
                  </th>
                  {series.map((one) => (
                    <td key={one.name} className="py-1 pr-3 text-right">
                      {format(one.values[index] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
