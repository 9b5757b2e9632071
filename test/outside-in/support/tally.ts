/** Requests and answers counted per operation, printed as the suite's figures. */
export class Tally {
  private readonly byOperation = new Map<string, Map<string, number>>();

  /** `status` is the answer's, or what came instead of one (`reset`). */
  count(operationId: string, status: number | string, slug?: string): void {
    const statuses = this.byOperation.get(operationId) ?? new Map<string, number>();
    const key = slug ? `${status} ${slug}` : String(status);
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
    this.byOperation.set(operationId, statuses);
  }

  requests(operationId?: string): number {
    const lists = operationId ? [this.byOperation.get(operationId)] : [...this.byOperation.values()];
    return lists.reduce((sum, statuses) => sum + [...(statuses?.values() ?? [])].reduce((a, b) => a + b, 0), 0);
  }

  /** How many answers had each status, all operations together. */
  statuses(): Record<string, number> {
    const totals: Record<string, number> = {};
    for (const statuses of this.byOperation.values()) {
      for (const [key, count] of statuses) {
        const status = key.split(' ')[0]!;
        totals[status] = (totals[status] ?? 0) + count;
      }
    }
    return totals;
  }

  report(): string {
    const rows = [...this.byOperation.entries()].sort(([a], [b]) => a.localeCompare(b));
    const lines = rows.map(([operationId, statuses]) => {
      const detail = [...statuses.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, count]) => `${key}: ${count}`);
      return `  ${operationId.padEnd(22)} ${String(this.requests(operationId)).padStart(5)}  ${detail.join(', ')}`;
    });
    return [
      `  ${'operation'.padEnd(22)} requests  statuses`,
      ...lines,
      `  ${'all'.padEnd(22)} ${String(this.requests()).padStart(5)}  ${JSON.stringify(this.statuses())}`,
    ].join('\n');
  }
}
