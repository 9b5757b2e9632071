import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/*
 * Node's parser keeps a chunked body's announced sizes to itself, so a huge chunk would be read until the limit,
 * as slowly as the client sends. These readers follow each connection's framing beside Node's parser, so that a
 * body announcing more than its route's limit is refused (413) at the size line. A reader only ever makes a
 * refusal earlier: what it cannot follow stops it for that connection, and the limit is enforced as bytes arrive.
 */

/** Longer heads or lines are refused by Node's parser (16 KiB of headers; chunk extensions). */
const MAX_HEAD_BYTES = 64 * 1024;

type State =
  | { at: 'head'; lines: string[]; text: string; bytes: number }
  | { at: 'body'; remaining: number }
  | { at: 'size'; text: string }
  | { at: 'data'; remaining: number }
  | { at: 'trailers'; text: string }
  | { at: 'off' };

const nextHead = (): State => ({ at: 'head', lines: [], text: '', bytes: 0 });
const bodyOf = (length: number): State => (length > 0 ? { at: 'body', remaining: length } : nextHead());

/** What a connection's chunked bodies announce: the total announced so far, per request in the order they came. */
class ConnectionReader extends EventEmitter {
  private state: State = nextHead();
  private requests = 0;
  private announced = 0;
  /** Requests of this connection that Node has handed on, in order: each request's number is its place. */
  handedOn = 0;

  /** Bytes announced so far by the body of the request at `index` (0 for one not chunked, or not yet read). */
  announcedFor(index: number): number {
    return index === this.requests - 1 ? this.announced : 0;
  }

  /** Bytes of bodies and chunks are counted, not looked at; only lines (heads, sizes, trailers) are read as text. */
  read(bytes: Buffer): void {
    let at = 0;
    while (at < bytes.length && this.state.at !== 'off') {
      const state = this.state;
      if (state.at === 'body' || state.at === 'data') {
        const taken = Math.min(state.remaining, bytes.length - at);
        at += taken;
        state.remaining -= taken;
        if (state.remaining === 0) this.state = state.at === 'body' ? nextHead() : { at: 'size', text: '' };
        continue;
      }
      // A line ends at its line feed; a line split over packets is kept until its end comes.
      const feed = bytes.indexOf(0x0a, at);
      const until = feed === -1 ? bytes.length : feed;
      if (state.text.length + until - at > MAX_HEAD_BYTES) {
        this.state = { at: 'off' };
        return;
      }
      state.text += bytes.toString('latin1', at, until);
      if (feed === -1) return;
      at = feed + 1;
      const line = state.text.endsWith('\r') ? state.text.slice(0, -1) : state.text;
      state.text = '';
      this.lineRead(state, line);
    }
  }

  private lineRead(state: Extract<State, { text: string }>, line: string): void {
    if (state.at === 'size') this.sizeRead(line);
    else if (state.at === 'trailers') {
      if (line === '') this.state = nextHead();
    } else if (line !== '') {
      state.lines.push(line);
      state.bytes += line.length + 2;
      if (state.bytes > MAX_HEAD_BYTES) this.state = { at: 'off' };
    } else if (state.lines.length > 0) {
      this.headRead(state.lines);
    }
    // An empty line before a request line is allowed (RFC 9112 2.2): nothing to read.
  }

  private headRead([requestLine, ...fieldLines]: string[]): void {
    this.requests += 1;
    this.announced = 0;
    const fields = fieldLines.map((line) => [
      line.slice(0, line.indexOf(':')).trim().toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]);
    const codings = fields
      .filter(([name]) => name === 'transfer-encoding')
      .flatMap(([, value]) => value!.split(',').map((coding) => coding.trim().toLowerCase()));
    const length = fields.find(([name]) => name === 'content-length')?.[1];
    if (requestLine!.startsWith('CONNECT ')) this.state = { at: 'off' };
    else if (codings.length > 0) this.state = codings.at(-1) === 'chunked' ? { at: 'size', text: '' } : { at: 'off' };
    else if (length !== undefined) this.state = /^\d{1,15}$/.test(length) ? bodyOf(Number(length)) : { at: 'off' };
    else this.state = nextHead();
  }

  private sizeRead(line: string): void {
    const digits = /^[0-9a-fA-F]+/.exec(line)?.[0]?.replace(/^0+(?=.)/, '');
    if (!digits) {
      this.state = { at: 'off' };
      return;
    }
    // Thirteen hexadecimal digits hold any safe integer; more are counted as the largest (the parser refuses
    // what overflows).
    const size = digits.length > 13 ? Number.MAX_SAFE_INTEGER : parseInt(digits, 16);
    if (size === 0) {
      this.state = { at: 'trailers', text: '' };
      return;
    }
    this.announced = Math.min(Number.MAX_SAFE_INTEGER, this.announced + size);
    // The chunk's data, then the line break that ends it.
    this.state = { at: 'data', remaining: size + 2 };
    this.emit('announced', this.requests - 1, this.announced);
  }
}

const readers = new WeakMap<Socket, ConnectionReader>();
const places = new WeakMap<IncomingMessage, number>();

/** Follows the framing of every connection of `server`. */
export function readChunkSizes(server: Server): void {
  server.on('connection', (socket: Socket) => {
    const reader = new ConnectionReader();
    readers.set(socket, reader);
    // A listener of its own: Node then hands the connection's bytes to its parser from JavaScript, and to it.
    socket.on('data', (bytes: Buffer) => reader.read(bytes));
  });
  const place = (request: IncomingMessage) => {
    const reader = readers.get(request.socket);
    if (reader) places.set(request, reader.handedOn++);
  };
  // Every request Node hands on, whichever event carries it, so that the places stay in step.
  server.prependListener('request', place);
  server.prependListener('checkExpectation', place);
}

/**
 * Calls `exceeded` once, as soon as the chunked body of `request` announces more than `limit` bytes
 * (at once, if it has already). Returns what stops watching.
 */
export function whenAnnouncedOver(request: IncomingMessage, limit: number, exceeded: () => void): () => void {
  const reader = readers.get(request.socket);
  const place = places.get(request);
  if (!reader || place === undefined) return () => {};
  if (reader.announcedFor(place) > limit) {
    exceeded();
    return () => {};
  }
  const listener = (index: number, total: number) => {
    if (index !== place || total <= limit) return;
    reader.off('announced', listener);
    exceeded();
  };
  reader.on('announced', listener);
  return () => reader.off('announced', listener);
}
