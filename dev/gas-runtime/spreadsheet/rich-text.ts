// Rich text for the emulated SpreadsheetApp: RichTextValue (text, runs, link URLs), its builder
// (SpreadsheetApp.newRichTextValue()), and TextStyle with its builder (SpreadsheetApp.newTextStyle()).
import { GasError, Msg } from '../errors';
import type { Execution } from '../execution';
import type { FacadeClass } from '../realm';
import type { RichTextData, RichTextRun } from './model';

export type TextStyleData = Record<string, unknown>;

/** Splits text into runs at every link/style boundary, covering the whole text. */
export function normalizeRuns(text: string, runs: RichTextRun[]): RichTextRun[] {
  const cuts = new Set<number>([0, text.length]);
  for (const r of runs) {
    cuts.add(r.start);
    cuts.add(r.end);
  }
  const points = [...cuts].filter((p) => p >= 0 && p <= text.length).sort((a, b) => a - b);
  const out: RichTextRun[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [start, end] = [points[i], points[i + 1]];
    let linkUrl: string | null = null;
    let style: TextStyleData | undefined;
    for (const r of runs) {
      if (r.start <= start && r.end >= end) {
        if (r.linkUrl !== null) linkUrl = r.linkUrl;
        if (r.style) style = { ...(style ?? {}), ...r.style };
      }
    }
    const previous = out[out.length - 1];
    if (previous && previous.linkUrl === linkUrl && JSON.stringify(previous.style) === JSON.stringify(style))
      previous.end = end;
    else out.push({ start, end, linkUrl, style });
  }
  return out;
}

interface RichTextImpl {
  data: RichTextData;
  /** Offsets of this value inside its cell text (runs are values too). */
  start: number;
  end: number;
}

interface BuilderImpl {
  text: string;
  runs: RichTextRun[];
  facade?: object;
}

export interface RichTextClasses {
  value: FacadeClass<RichTextImpl>;
  builder: FacadeClass<BuilderImpl>;
  style: FacadeClass<{ style: TextStyleData }>;
  styleBuilder: FacadeClass<{ style: TextStyleData; facade?: object }>;
  /** Facade of a cell's rich text. */
  wrap(data: RichTextData): Record<string, unknown>;
  newBuilder(text?: string, runs?: RichTextRun[]): Record<string, unknown>;
  newStyleBuilder(): Record<string, unknown>;
  /** Host data behind a RichTextValue passed in by the script. */
  dataOf(value: unknown): RichTextData | undefined;
}

export function defineRichText(exec: Execution): RichTextClasses {
  const style: FacadeClass<{ style: TextStyleData }> = exec.define<{ style: TextStyleData }>('TextStyle', {
    isBold() {
      return (this.style.bold as boolean | undefined) ?? null;
    },
    isItalic() {
      return (this.style.italic as boolean | undefined) ?? null;
    },
    isUnderline() {
      return (this.style.underline as boolean | undefined) ?? null;
    },
    isStrikethrough() {
      return (this.style.strikethrough as boolean | undefined) ?? null;
    },
    getFontSize() {
      return (this.style.fontSize as number | undefined) ?? null;
    },
    getFontFamily() {
      return (this.style.fontFamily as string | undefined) ?? null;
    },
    getForegroundColor() {
      return (this.style.foregroundColor as string | undefined) ?? null;
    },
    copy() {
      return newStyleBuilder({ ...this.style });
    },
  });
  const setter = (field: string) =>
    function (this: { style: TextStyleData; facade?: object }, value: unknown) {
      this.style[field] = value;
      return this.facade;
    };
  const styleBuilder: FacadeClass<{ style: TextStyleData; facade?: object }> = exec.define<{
    style: TextStyleData;
    facade?: object;
  }>('TextStyleBuilder', {
    setBold: setter('bold'),
    setItalic: setter('italic'),
    setUnderline: setter('underline'),
    setStrikethrough: setter('strikethrough'),
    setFontSize: setter('fontSize'),
    setFontFamily: setter('fontFamily'),
    setForegroundColor: setter('foregroundColor'),
    build() {
      return style.wrap({ style: { ...this.style } });
    },
  });
  function newStyleBuilder(initial: TextStyleData = {}): Record<string, unknown> {
    const impl: { style: TextStyleData; facade?: object } = { style: initial };
    impl.facade = styleBuilder.wrap(impl);
    return impl.facade as Record<string, unknown>;
  }
  const styleOf = (value: unknown): TextStyleData => ({ ...(style.unwrap(value)?.style ?? {}) });

  const value: FacadeClass<RichTextImpl> = exec.define<RichTextImpl>('RichTextValue', {
    getText() {
      return this.data.text.slice(this.start, this.end);
    },
    getStartIndex() {
      return this.start;
    },
    getEndIndex() {
      return this.end;
    },
    getLinkUrl(startOffset?: number, endOffset?: number) {
      const from = startOffset === undefined ? this.start : this.start + Number(startOffset);
      const to = endOffset === undefined ? this.end : this.start + Number(endOffset);
      if (from >= to) return null;
      const links = new Set(
        normalizeRuns(this.data.text, this.data.runs)
          .filter((r) => r.end > from && r.start < to)
          .map((r) => r.linkUrl),
      );
      return links.size === 1 ? [...links][0] : null;
    },
    getRuns() {
      return normalizeRuns(this.data.text, this.data.runs)
        .filter((r) => r.end > this.start && r.start < this.end)
        .map((r) =>
          value.wrap({ data: this.data, start: Math.max(r.start, this.start), end: Math.min(r.end, this.end) }),
        );
    },
    getTextStyle(startOffset?: number) {
      const at = this.start + (startOffset === undefined ? 0 : Number(startOffset));
      const run = normalizeRuns(this.data.text, this.data.runs).find((r) => r.start <= at && r.end > at);
      return style.wrap({ style: { ...(run?.style ?? {}) } });
    },
    copy() {
      return newBuilder(
        this.data.text.slice(this.start, this.end),
        this.data.runs.map((r) => ({ ...r, start: r.start - this.start, end: r.end - this.start })),
      );
    },
  });

  const builder: FacadeClass<BuilderImpl> = exec.define<BuilderImpl>('RichTextValueBuilder', {
    setText(text: string) {
      this.text = String(text);
      this.runs = [];
      return this.facade;
    },
    setLinkUrl(...args: unknown[]) {
      const [start, end, url] =
        args.length >= 3 ? [Number(args[0]), Number(args[1]), args[2]] : [0, this.text.length, args[0]];
      if (start < 0 || end > this.text.length || start > end) throw new GasError(Msg.richTextLinkRange);
      this.runs.push({ start, end, linkUrl: url === null || url === undefined || url === '' ? null : String(url) });
      return this.facade;
    },
    setTextStyle(...args: unknown[]) {
      const [start, end, textStyle] =
        args.length >= 3 ? [Number(args[0]), Number(args[1]), args[2]] : [0, this.text.length, args[0]];
      if (start < 0 || end > this.text.length || start > end) throw new GasError(Msg.richTextLinkRange);
      this.runs.push({ start, end, linkUrl: null, style: styleOf(textStyle) });
      return this.facade;
    },
    build() {
      const data = { text: this.text, runs: normalizeRuns(this.text, this.runs) };
      return value.wrap({ data, start: 0, end: data.text.length });
    },
  });

  function newBuilder(text = '', runs: RichTextRun[] = []): Record<string, unknown> {
    const impl: BuilderImpl = { text, runs };
    impl.facade = builder.wrap(impl);
    return impl.facade as Record<string, unknown>;
  }

  return {
    value,
    builder,
    style,
    styleBuilder,
    wrap: (data) => value.wrap({ data, start: 0, end: data.text.length }),
    newBuilder,
    newStyleBuilder: () => newStyleBuilder(),
    dataOf(v) {
      const impl = value.unwrap(v);
      if (!impl) return undefined;
      const text = impl.data.text.slice(impl.start, impl.end);
      const runs = impl.data.runs
        .filter((r) => r.end > impl.start && r.start < impl.end)
        .map((r) => ({
          ...r,
          start: Math.max(r.start, impl.start) - impl.start,
          end: Math.min(r.end, impl.end) - impl.start,
        }));
      return { text, runs: normalizeRuns(text, runs) };
    },
  };
}
