import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Base64Error, canonicalBase64, decodeStdBase64, encodeStdBase64 } from './base64';

describe('Go base64.StdEncoding', () => {
  it('round-trips any bytes, matching Node’s encoder (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = encodeStdBase64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64'));
        expect(decodeStdBase64(text)).toEqual(bytes);
      }),
    );
  });

  it('ignores CR and LF anywhere', () => {
    expect(new TextDecoder().decode(decodeStdBase64('bXkt\r\nYXBw\n'))).toBe('my-app');
    expect(canonicalBase64('Mzk1\nMjgk\ndmRn\nN0pi')).toBe('Mzk1MjgkdmRnN0pi');
  });

  it('reports the offset Go reports', () => {
    const cases: [string, number][] = [
      ['abc!', 3], // illegal character
      ['YQ', 0], // too short, padding required: offset of the quantum start
      ['YWJ', 0],
      ['Y===', 1], // padding after one character
      ['YQ=', 3], // "==" expected, input ends
      ['YQ=x', 2], // "==" expected, found another character
      ['YQ==YQ==', 4], // trailing data after padding
      ['=', 0],
    ];
    for (const [input, offset] of cases) {
      let thrown: unknown;
      try {
        decodeStdBase64(input);
      } catch (err) {
        thrown = err;
      }
      expect(thrown, input).toBeInstanceOf(Base64Error);
      expect((thrown as Base64Error).message, input).toBe(`illegal base64 data at input byte ${offset}`);
    }
  });
});
