import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/*
 * A chunked body says its size chunk by chunk, and Node's parser tells no one: a client announcing a
 * chunk of a gigabyte was read until the body limit was reached, as slowly as it chose to send. These
 * readers follow the framing of each connection's requests beside Node's parser, so that a body whose
 * announced chunks pass its route's limit is refused (413) as soon as the chunk's size line is read.
 *
 * A reader only ever makes a refusal earlier: what it cannot follow (a head or a size line longer than
 * Node reads, a framing it does not know) stops it for the connection, and the body limit is then
 * enforced as the bytes arrive, as before.
 */

/** Longer heads or size lines are refused by Node's parser (16 KiB of headers; chunk extensions). */
const MAX_LINE_BYTES = 64 * 1024;

type State =
  | { at: 'head'; text: string }
  | { at: 'body'; remaining: number }
  | { at: 'size'; text: string }
  | { at: 'data'; remaining: number }
  | { at: 'trailers'; text: string }
  | { at: 'off' };

/** What a connection's chunked bodies announce: the total announced so far, per request in the order they came. */
class ConnectionReader extends EventEmitter {
  private state: State = { at: 'head', text: '' };
  private requests = 0;
  private announced = 0;
  /** Requests of this connection that Node has handed on, in order: each request's number is its place. */
  handedOn = 0;

  /** Bytes announced so far by the body of the request at `index` (0 for one not chunked, or not yet read). */
  announcedFor(index: number): number {
    return index === this.requests - 1 ? this.announced : 0;
  }

  read(bytes: Buffer): void {
    let at = 0;
    while (at < bytes.length && this.state.at !== 'off') {
      const state = this.state;
      if (state.at === 'body' || state.at === 'data') {
        const taken = Math.min(state.remaining, bytes.length - at);
        at += taken;
        state.remaining -= taken;
        if (state.remaining === 0) this.state = state.at === 'body' ? { at: 'head', text: '' } : { at: 'size', text: '' };
        continue;
      }
      // A line-based state: its text up to the end of its line (the head: up to its empty line).
      const end = state.at === 'head' ? '\r\n\r\n' : '\r\n';
      const text = state.text + bytes.toString('latin1', at, Math.min(bytes.length, at + MAX_LINE_BYTES));
      const found = text.indexOf(end, Math.max(0, state.text.length - end.length + 1));
      if (found === -1) {
        if (text.length >= MAX_LINE_BYTES) this.state = { at: 'off' };
        else state.text = text;
        at = bytes.length;
        continue;
      }
      at += found + end.length - state.text.length;
      this.lineRead(state, text.slice(0, found));
    }
  }

  private lineRead(state: Extract<State, { text: string }>, line: string): void {
    if (state.at === 'head') this.headRead(line);
    else if (state.at === 'trailers') this.state = line === '' ? { at: 'head', text: '' } : { at: 'trailers', text: '' };
    else this.sizeRead(line);
  }

  private headRead(head: string): void {
    // Empty lines before a request line are allowed (RFC 9112 2.2).
    const lines = head.replace(/^(\r\n)+/, '').split('\r\n');
    if (lines[0] === '') {
      this.state = { at: 'head', text: '' };
      return;
    }
    this.requests += 1;
    this.announced = 0;
    const fields = lines.slice(1).map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]);
    const codings = fields.filter(([name]) => name === 'transfer-encoding').flatMap(([, value]) => value!.split(',').map((coding) => coding.trim().toLowerCase()));
    const length = fields.find(([name]) => name === 'content-length')?.[1];
    if (lines[0]!.startsWith('CONNECT ')) this.state = { at: 'off' };
    else if (codings.length > 0) this.state = codings.at(-1) === 'chunked' ? { at: 'size', text: '' } : { at: 'off' };
    else if (length !== undefined) this.state = /^\d{1,15}$/.test(length) ? bodyOf(Number(length)) : { at: 'off' };
    else this.state = { at: 'head', text: '' };
  }

  private sizeRead(line: string): void {
    const digits = /^[0-9a-fA-F]+/.exec(line)?.[0];
    if (!digits) {
      this.state = { at: 'off' };
      return;
    }
    // Sixteen hexadecimal digits hold any size; more only pad with zeros or overflow, which the parser refuses.
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

const bodyOf = (length: number): State => (length > 0 ? { at: 'body', remaining: length } : { at: 'head', text: '' });

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
