/**
 * An incremental `text/event-stream` reader (WHATWG HTML, "Server-sent events", the parts the benchmark
 * meets): fed text as it arrives, it gives each complete event's fields and counts comment lines.
 * Written here rather than taken from a framework, so that it judges both servers alike.
 */
export interface ParsedEvent {
  event: string;
  id: string | null;
  data: string;
}

export class EventStreamReader {
  #pending = '';
  /** Comment lines seen (heartbeats). */
  comments = 0;

  /** The events completed by `text`. */
  feed(text: string): ParsedEvent[] {
    this.#pending += text;
    const events: ParsedEvent[] = [];
    for (;;) {
      const end = /\r\n\r\n|\n\n|\r\r/.exec(this.#pending);
      if (end === null) return events;
      const block = this.#pending.slice(0, end.index);
      this.#pending = this.#pending.slice(end.index + end[0].length);
      const event = this.#block(block);
      if (event !== null) events.push(event);
    }
  }

  #block(block: string): ParsedEvent | null {
    let event = 'message';
    let id: string | null = null;
    const data: string[] = [];
    for (const line of block.split(/\r\n|\r|\n/)) {
      if (line.startsWith(':')) {
        this.comments++;
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'id') id = value;
      else if (field === 'data') data.push(value);
    }
    return data.length === 0 ? null : { event, id, data: data.join('\n') };
  }
}
