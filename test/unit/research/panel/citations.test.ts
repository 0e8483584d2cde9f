import { withoutSourceList } from '../../../../sidebar/research/citations';

describe('report source list', () => {
  it('leaves out a closing list of numbered sources, which the panel shows as one list', () => {
    const markdown =
      '# Acme\nAcme sells rockets [1][2].\n\n## Sources\n[1] https://acme.com/\n[2] https://acme.com/about\n';
    expect(withoutSourceList(markdown)).toBe('# Acme\nAcme sells rockets [1][2].\n');
    expect(withoutSourceList('# A\ntext\n### References:\n1. https://a.com\n- [2] https://b.com\n')).toBe(
      '# A\ntext\n',
    );
  });

  it('keeps a Sources section that says more than the list, and markdown without one', () => {
    const prose = '# A\n## Sources\nWe read the annual report and two interviews.\n';
    expect(withoutSourceList(prose)).toBe(prose);
    expect(withoutSourceList('# A\nNo sources here.\n')).toBe('# A\nNo sources here.\n');
    const earlier = '# A\n## Sources\n[1] https://a.com\n## Outlook\nGrowing.\n';
    expect(withoutSourceList(earlier)).toBe(earlier);
  });
});
