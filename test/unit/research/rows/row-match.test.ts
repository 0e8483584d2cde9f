import { companyMismatch, domainsIn } from '../../../../src/research/rows/row-match';

describe('task and row companies', () => {
  it('finds the registered domains a brief names', () => {
    expect(domainsIn('Research https://www.veranddev.com/about and blog.acme.co.uk, then veranddev.com again')).toEqual(
      ['veranddev.com', 'acme.co.uk'],
    );
    expect(domainsIn('Research Feil, Cole and Howe')).toEqual([]);
  });

  it('reports a task about another company than the row, and nothing when they match or cannot be compared', () => {
    expect(companyMismatch('Research veranddev.com', ['Feil, Cole and Howe', 'feilcole.com', ''])).toEqual({
      taskDomain: 'veranddev.com',
      rowDomain: 'feilcole.com',
    });
    expect(companyMismatch('Research veranddev.com', ['Verand Dev', 'https://VERANDDEV.com/'])).toBeNull();
    expect(companyMismatch('Research Verand Dev', ['feilcole.com'])).toBeNull();
    expect(companyMismatch('Research veranddev.com', ['Feil, Cole and Howe', '42'])).toBeNull();
  });
});
