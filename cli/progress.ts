/** Where progress goes: a stream that may be a terminal (process.stderr). */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** A terminal's bar is redrawn at most this often; plain lines come at most this often. */
const REDRAW_MS = 100;
const LINE_MS = 5_000;
const BAR_WIDTH = 24;

/**
 * The progress of a generation, table after table: on a terminal a bar redrawn in place (rows of the table,
 * rows per second, time left); otherwise plain lines, one when a table starts, one every few seconds and one
 * when it is written, so that a log or a CI job shows it without control characters. Quiet: nothing.
 */
export class Progress {
  private table = '';
  private total = 0;
  private done = 0;
  private started = 0;
  private shown = 0;
  private readonly tty: boolean;
  private readonly quiet: boolean;
  private readonly now: () => number;

  constructor(
    private readonly out: ProgressStream,
    { quiet = false, now = () => performance.now() }: { quiet?: boolean; now?: () => number } = {},
  ) {
    this.tty = out.isTTY === true;
    this.quiet = quiet;
    this.now = now;
  }

  /** A line of its own, between tables. */
  say(line: string): void {
    if (!this.quiet) this.out.write(`${line}\n`);
  }

  start(table: string, rows: number): void {
    this.table = table;
    this.total = rows;
    this.done = 0;
    this.started = this.now();
    this.shown = this.started;
    if (this.quiet) return;
    if (this.tty) this.draw();
    else this.out.write(`${table}: ${count(rows)} rows\n`);
  }

  update(rowsDone: number): void {
    this.done = rowsDone;
    if (this.quiet) return;
    const now = this.now();
    if (now - this.shown < (this.tty ? REDRAW_MS : LINE_MS)) return;
    this.shown = now;
    if (this.tty) this.draw();
    else this.out.write(`${this.table}: ${this.status(now)}\n`);
  }

  /** The table is written to `file` (`bytes` on disk). */
  finish(file: string, bytes: number): void {
    if (this.quiet) return;
    const seconds = (this.now() - this.started) / 1000;
    const rate = seconds > 0 ? ` in ${seconds.toFixed(1)} s (${count(Math.round(this.done / seconds))} rows/s)` : '';
    const line = `${this.table}: ${count(this.done)} rows${rate} → ${file} (${size(bytes)})`;
    this.out.write(this.tty ? `\r\x1b[2K${line}\n` : `${line}\n`);
  }

  private draw(): void {
    const share = this.total === 0 ? 1 : this.done / this.total;
    const filled = Math.round(share * BAR_WIDTH);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
    const line = `${this.table} ${bar} ${this.status(this.now())}`;
    this.out.write(`\r\x1b[2K${line.slice(0, (this.out.columns ?? 120) - 1)}`);
  }

  /** `1,200,000/5,000,000 rows (24%), 812,345 rows/s, 5 s left`. */
  private status(now: number): string {
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    const percent = this.total === 0 ? 100 : Math.floor((100 * this.done) / this.total);
    const left = rate > 0 ? `, ${duration((this.total - this.done) / rate)} left` : '';
    return `${count(this.done)}/${count(this.total)} rows (${percent}%), ${count(Math.round(rate))} rows/s${left}`;
  }
}

function count(value: number): string {
  return value.toLocaleString('en');
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - 60 * minutes)} s`;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
