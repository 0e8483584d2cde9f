// HtmlService: HtmlOutput and HtmlTemplate over the built HTML files (createHtmlOutputFromFile reads
// <htmlDir>/<name>.html). Templates are compiled to a function inside the execution's realm, so
// scriptlets (<? ?>, <?= ?>, <?!= ?>) can call the bundle's own functions such as include().
import fs from 'node:fs';
import path from 'node:path';
import { GasError, Msg } from '../errors';
import { makeEnum } from '../realm';
import type { ServiceContext } from '../state/env';
import type { HtmlOutputData } from '../spreadsheet/ui';
import { BlobImpl, blobFacadeClass } from './blob';

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** Compiles template text to the source of `function (vars, escape) { ... return html }`. */
export function compileTemplate(source: string): string {
  const parts: string[] = [];
  const re = /<\?(!=|=)?([\s\S]*?)\?>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(source))) {
    if (m.index > last) parts.push(`__out.push(${JSON.stringify(source.slice(last, m.index))});`);
    if (m[1] === '=') parts.push(`__out.push(__escape(String((${m[2]}))));`);
    else if (m[1] === '!=') parts.push(`__out.push(String((${m[2]})));`);
    else parts.push(m[2]);
    last = re.lastIndex;
  }
  if (last < source.length) parts.push(`__out.push(${JSON.stringify(source.slice(last))});`);
  return `(function (__vars, __escape) { var __out = []; with (__vars) { ${parts.join('\n')} } return __out.join(''); })`;
}

export function createHtmlService({ env, exec }: ServiceContext) {
  const { realm } = exec;
  const Blob = blobFacadeClass(exec);
  const readFile = (name: string): { file: string; content: string } => {
    const file = String(name).endsWith('.html') ? String(name) : `${name}.html`;
    const full = path.join(env.htmlDir, file);
    if (!fs.existsSync(full)) throw new GasError(Msg.noHtmlFile(String(name)));
    return { file: file.replace(/\.html$/, ''), content: fs.readFileSync(full, 'utf8') };
  };

  const Output = exec.define<HtmlOutputData & { facade?: object }>('HtmlOutput', {
    getContent() {
      return this.content;
    },
    setContent(content: string) {
      this.content = String(content);
      return this.facade;
    },
    append(content: string) {
      this.content += String(content);
      return this.facade;
    },
    appendUntrusted(content: string) {
      this.content += escapeHtml(String(content));
      return this.facade;
    },
    clear() {
      this.content = '';
      return this.facade;
    },
    getTitle() {
      return this.title;
    },
    setTitle(title: string) {
      this.title = String(title);
      return this.facade;
    },
    getWidth() {
      return this.width;
    },
    setWidth(width: number) {
      this.width = Number(width);
      return this.facade;
    },
    getHeight() {
      return this.height;
    },
    setHeight(height: number) {
      this.height = Number(height);
      return this.facade;
    },
    setSandboxMode() {
      return this.facade;
    },
    setXFrameOptionsMode() {
      return this.facade;
    },
    addMetaTag() {
      return this.facade;
    },
    setFaviconUrl() {
      return this.facade;
    },
    getBlob() {
      return Blob.wrap(BlobImpl.fromString(this.content, 'text/html', this.file ?? null));
    },
  });
  const newOutput = (content: string, file?: string) => {
    const impl: HtmlOutputData & { facade?: object } = { content, title: '', width: 300, height: 500, file };
    impl.facade = Output.wrap(impl);
    return impl.facade;
  };

  const Template = exec.define<{ source: string; file?: string; facade?: Record<string, unknown> }>('HtmlTemplate', {
    evaluate() {
      const vars = realm.object();
      for (const [key, value] of Object.entries(this.facade ?? {})) vars[key] = value;
      const render = realm.run(compileTemplate(this.source)) as (vars: object, escape: (s: string) => string) => string;
      return newOutput(render(vars, escapeHtml), this.file);
    },
    getRawContent() {
      return this.source;
    },
    getCode() {
      return compileTemplate(this.source);
    },
  });
  const newTemplate = (source: string, file?: string) => {
    const impl: { source: string; file?: string; facade?: Record<string, unknown> } = { source, file };
    impl.facade = Template.wrap(impl);
    return impl.facade;
  };

  const Service = exec.define<object>('HtmlService', {
    createHtmlOutput(html?: unknown) {
      return newOutput(html === undefined ? '' : String(html));
    },
    createHtmlOutputFromFile(filename: string) {
      const { file, content } = readFile(filename);
      return newOutput(content, file);
    },
    createTemplate(html: string) {
      return newTemplate(String(html));
    },
    createTemplateFromFile(filename: string) {
      const { file, content } = readFile(filename);
      return newTemplate(content, file);
    },
  });
  return {
    service: Service.wrap(
      {},
      {
        SandboxMode: makeEnum(realm, ['EMULATED', 'IFRAME', 'NATIVE']),
        XFrameOptionsMode: makeEnum(realm, ['ALLOWALL', 'DEFAULT']),
      },
    ),
    outputs: Output,
  };
}
