import { Writable } from 'node:stream';

/**
 * A pipe whose reader has stopped reading (a client's stdout or stderr it does not read): each
 * write is kept in `lines` but not taken until `flush`, so `stream.writableLength` grows as it
 * would in the writer's memory. After `flush` the reader keeps up.
 */
export function stalledPipe(): { stream: Writable; lines: string[]; flush: () => void } {
  const held: Array<() => void> = [];
  const lines: string[] = [];
  let reading = false;
  const stream = new Writable({
    highWaterMark: 16,
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      if (reading) callback();
      else held.push(callback);
    },
  });
  const flush = () => {
    reading = true;
    for (const callback of held.splice(0)) callback();
  };
  return { stream, lines, flush };
}
