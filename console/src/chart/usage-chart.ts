import uPlot from 'uplot';

export interface UsageChart {
  destroy(): void;
}

const DAY_SECONDS = 86_400;

/** Credits per day as bars, drawn by uPlot into `host` at its width; redrawn at the new width on resize. */
export function drawUsageChart(host: HTMLElement, days: string[], credits: number[]): UsageChart {
  const times = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
  const size = () => ({ width: Math.max(host.clientWidth, 240), height: 220 });
  const plot = new uPlot(
    {
      ...size(),
      // The date of a bar is its UTC day, as the service counts days.
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
      legend: { show: false },
      cursor: { show: false },
      scales: {
        x: { time: true, range: (_plot, min, max) => [min - DAY_SECONDS / 2, max + DAY_SECONDS / 2] },
        y: { range: (_plot, _min, max) => [0, Math.max(max, 1) * 1.1] },
      },
      // Credits are whole: ticks at 1, 2, 5, 10, 20, 50, …
      axes: [
        {},
        {
          label: 'credits',
          size: 60,
          incrs: Array.from({ length: 24 }, (_, i) => [1, 2, 5][i % 3]! * 10 ** Math.floor(i / 3)),
        },
      ],
      series: [
        {},
        {
          label: 'credits',
          stroke: '#1d5fd6',
          fill: 'rgba(29, 95, 214, 0.35)',
          paths: uPlot.paths.bars!({ size: [0.7, 40] }),
          points: { show: false },
        },
      ],
    },
    [times, credits],
    host,
  );
  const resize = () => plot.setSize(size());
  addEventListener('resize', resize);
  return {
    destroy() {
      removeEventListener('resize', resize);
      plot.destroy();
    },
  };
}
