// The 300 px layout check the browser tests share: the texts a sidebar panel cuts off (an element whose text is wider
// inside than it shows, a page that scrolls sideways, a select's chosen option or an input's value wider than the
// control).
import type { Frame } from 'playwright-core';

export interface Clip {
  what: string;
  text: string;
  overflow: number;
}

/** The clipped texts of the panel in `frame` (empty when everything fits). */
export async function clippedTexts(frame: Frame): Promise<Clip[]> {
  return frame.evaluate(() => {
    const clips: Array<{ what: string; text: string; overflow: number }> = [];
    const describe = (element: Element): string =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.className && typeof element.className === 'string' ? `.${element.className.split(' ').join('.')}` : ''}`;
    const canvas = document.createElement('canvas').getContext('2d')!;
    const textWidth = (element: Element, text: string): number => {
      const style = getComputedStyle(element);
      canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      return canvas.measureText(text).width;
    };
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth)
      clips.push({ what: 'page scrolls sideways', text: '', overflow: root.scrollWidth - root.clientWidth });
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const style = getComputedStyle(element);
      if (
        style.display === 'none' ||
        style.visibility === 'hidden' ||
        element.closest('[hidden], details:not([open]) > :not(summary)')
      )
        continue;
      const box = element as HTMLElement;
      if (element instanceof HTMLSelectElement) {
        const chosen = element.selectedOptions[0]?.textContent ?? '';
        const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20; // the arrow
        const need = textWidth(element, chosen);
        if (chosen && need > room)
          clips.push({ what: describe(element), text: chosen, overflow: Math.round(need - room) });
        continue;
      }
      if (element instanceof HTMLInputElement && ['text', 'url', 'number', 'password', ''].includes(element.type)) {
        if (element.value && element.scrollWidth > element.clientWidth)
          clips.push({
            what: describe(element),
            text: element.value,
            overflow: element.scrollWidth - element.clientWidth,
          });
        continue;
      }
      if (element instanceof HTMLTextAreaElement) continue;
      const ownText = Array.from(element.childNodes).some(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== '',
      );
      const hasText = ownText || (element.textContent ?? '').trim() !== '';
      if (!hasText || box.clientWidth === 0) continue;
      if (box.scrollWidth > box.clientWidth + 1)
        clips.push({
          what: describe(element),
          text: (element.textContent ?? '').trim().slice(0, 80),
          overflow: box.scrollWidth - box.clientWidth,
        });
    }
    return clips;
  });
}
