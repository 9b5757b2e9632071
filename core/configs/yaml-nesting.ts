import { CST } from 'yaml';

/** Tokens that mark a state of the lexer and stand for no text: the parser does not count them in its offsets. */
const MARKERS = new Set([CST.DOCUMENT, CST.FLOW_END, CST.SCALAR]);
const BLOCK_INDICATORS = new Set(['seq-item-ind', 'explicit-key-ind', 'map-value-ind']);

/**
 * Follows the nesting of a YAML text token by token, as yaml's lexer yields them, before its parser
 * and composer see them: both take time, memory and stack in proportion to the depth (a deep enough
 * text overflows the composer's stack), so a text is refused as soon as it is too deep.
 *
 * The depth counted is an estimate between half the true depth and the true depth plus two: flow
 * collections (`[`, `{`) exactly, block collections by the columns they start at (a block collection
 * starts further right than the one holding it, or at the same column for a list under a map's key:
 * hence half), plus one for a value that starts a line or follows an indicator, and one for the
 * column of a flow collection that is a block's value.
 */
export class YamlNesting {
  private offset = 0;
  private lineStart = 0;
  private atLineStart = true;
  private afterIndicator = false;
  private atScalar = false;
  private flow = 0;
  /** Start columns of the open block collections, increasing. */
  private readonly columns: number[] = [];

  /** `limit`: the depth from which `read` answers the offset of the token that reached it. */
  constructor(private readonly limit: number) {}

  /** Reads the next token; answers its offset when the nesting reaches the limit there. */
  read(token: string): number | undefined {
    if (MARKERS.has(token)) {
      // The token after this marker is a scalar's text, whatever it starts with (spaces, `#`, `-`).
      this.atScalar = token === CST.SCALAR;
      return undefined;
    }
    const at = this.offset;
    this.offset += token.length;
    const type = this.atScalar ? 'scalar' : CST.tokenType(token);
    this.atScalar = false;
    if (type === 'space' || type === 'comment' || type === 'byte-order-mark') return undefined;
    if (type === 'newline') {
      this.lineStart = this.offset;
      this.atLineStart = true;
      this.afterIndicator = false;
      return undefined;
    }
    if (this.flow === 0 && (this.atLineStart || this.afterIndicator)) this.blockItemAt(at - this.lineStart);
    this.afterIndicator = this.flow === 0 && type !== null && BLOCK_INDICATORS.has(type);
    this.atLineStart = false;
    if (type === 'flow-map-start' || type === 'flow-seq-start') this.flow += 1;
    else if ((type === 'flow-map-end' || type === 'flow-seq-end') && this.flow > 0) this.flow -= 1;
    // A scalar over several lines (plain, quoted, a block scalar's text) ends on a line of its own.
    const lastBreak = token.lastIndexOf('\n');
    if (lastBreak !== -1) {
      this.lineStart = at + lastBreak + 1;
      this.atLineStart = token.slice(lastBreak + 1).trim() === '';
    }
    return this.columns.length + this.flow >= this.limit ? at : undefined;
  }

  /** Something starts a line, or follows `- `, `? ` or `: `, at `column`: it closes what started further right. */
  private blockItemAt(column: number): void {
    while (this.columns.length > 0 && this.columns[this.columns.length - 1]! > column) this.columns.pop();
    if (this.columns.length === 0 || this.columns[this.columns.length - 1]! < column) this.columns.push(column);
  }
}
