// Composes the markdown report of a finished task from the evidence its research agents gathered: sections per
// research facet, every statement followed by [n] citations of the sources that state it, and a numbered source
// list whose ids are exactly the citations used.
import type { Company } from '../companies/company-index';
import type { Evidence, ResearchPlan, SubQuestion } from './research-planner';

export interface FinishedAgent {
  question: SubQuestion;
  ok: boolean;
  evidence: Evidence[];
}

export interface MarkdownReport {
  kind: 'markdown';
  markdown: string;
  sources: { id: number; url: string }[];
  degradation_reasons: string[];
}

/** Numbers sources in order of first citation. */
export class Citations {
  private readonly ids = new Map<string, number>();

  cite(evidence: Evidence): string {
    return evidence.sources.map((url) => `[${this.id(url)}]`).join('');
  }

  id(url: string): number {
    let id = this.ids.get(url);
    if (id === undefined) this.ids.set(url, (id = this.ids.size + 1));
    return id;
  }

  list(): { id: number; url: string }[] {
    return [...this.ids.entries()].map(([url, id]) => ({ id, url }));
  }
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

class MarkdownComposer {
  private readonly lines: string[] = [];
  private readonly citations = new Citations();
  /** Evidence already shown in a bullet section, so a fact two agents found appears once. */
  private readonly shown = new Set<string>();

  constructor(
    private readonly plan: ResearchPlan,
    private readonly agents: FinishedAgent[],
  ) {}

  compose(brief: string, degradations: string[]): MarkdownReport {
    const target = this.plan.target;
    if (target.kind === 'company') this.companyReport(target.primary, target.others);
    else this.marketReport(target.label);
    this.lines.splice(
      1,
      0,
      '',
      `> Brief: ${brief.replace(/\s+/g, ' ').trim().slice(0, 500)}${brief.length > 500 ? '…' : ''}`,
      '',
      `Depth: ${this.plan.depth} · research agents: ${this.agents.length} · sources: ${this.sourceCount()}`,
    );
    if (degradations.length > 0) {
      this.heading('Research notes');
      for (const reason of degradations) this.lines.push(`- ${reason}`);
    }
    this.heading('Sources');
    for (const { id, url } of this.citations.list()) this.lines.push(`[${id}] ${url}`);
    return {
      kind: 'markdown',
      markdown: `${this.lines.join('\n')}\n`,
      sources: this.citations.list(),
      degradation_reasons: degradations,
    };
  }

  private sourceCount(): number {
    return new Set(this.agents.flatMap((agent) => agent.evidence.flatMap((evidence) => evidence.sources))).size;
  }

  private heading(text: string, level = 2): void {
    this.lines.push('', `${'#'.repeat(level)} ${text}`, '');
  }

  private sentence(evidence: Evidence): string {
    return `${evidence.statement} ${this.citations.cite(evidence)}`;
  }

  private evidenceOf(facet: SubQuestion['facet'], company?: Company): Evidence[] {
    return this.agents
      .filter(
        (agent) => agent.question.facet === facet && (company === undefined || agent.question.company === company),
      )
      .flatMap((agent) => agent.evidence);
  }

  private companyReport(primary: Company, others: Company[]): void {
    this.lines.push(`# ${primary.name} (${primary.domain})`);
    const overview = this.evidenceOf('overview', primary);
    const firmographics = this.evidenceOf('firmographics', primary);
    this.heading('Summary');
    this.lines.push(
      [...overview.filter((evidence) => evidence.field === 'short_description'), ...firmographics]
        .map((evidence) => this.sentence(evidence))
        .join(' '),
    );
    const full = overview.find((evidence) => evidence.field === 'full_description');
    if (full) {
      this.heading(`What ${primary.name} does`);
      this.lines.push(this.sentence(full));
    }
    this.bulletSection('Products and services', this.evidenceOf('products', primary));
    this.bulletSection('Customers and use cases', this.evidenceOf('customers', primary));
    if (firmographics.length > 0) {
      this.heading('Company facts');
      this.lines.push('| Fact | Value | Sources |', '| --- | --- | --- |');
      const values: Record<string, string> = {
        founding_year: String(primary.founding_year),
        employee_count: primary.employee_count,
        headquarters: primary.hq_full_address,
      };
      for (const evidence of firmographics) {
        this.lines.push(
          `| ${evidence.field.replace(/_/g, ' ')} | ${escapeCell(values[evidence.field] ?? evidence.statement)} | ${this.citations.cite(evidence)} |`,
        );
      }
    }
    this.bulletSection('Online presence', this.evidenceOf('online_presence', primary));
    const competitors = this.evidenceOf('competitors', primary);
    if (competitors.length > 0) {
      this.heading('Competitors and lookalikes');
      competitors.forEach((evidence, index) => this.lines.push(`${index + 1}. ${this.sentence(evidence)}`));
    }
    const profiled = this.agents.filter(
      (agent) => agent.question.facet === 'company_profile' && agent.question.company,
    );
    const mentioned = profiled.filter((agent) => others.includes(agent.question.company as Company));
    const peers = profiled.filter((agent) => !others.includes(agent.question.company as Company));
    this.profileSection('Other companies in the brief', mentioned);
    this.profileSection('Competitor profiles', peers);
    this.landscapeSection();
    const open = this.evidenceOf('open_question', primary);
    const asked = this.agents.filter((agent) => agent.question.facet === 'open_question');
    if (asked.length > 0) {
      this.heading('Other questions');
      for (const agent of asked) {
        const topic = (agent.question.terms ?? []).join(' ');
        const answer = open.find((evidence) => evidence.topic === topic);
        this.lines.push(
          `- **${topic}**: ${answer ? this.sentence(answer) : 'no statement about this was found in the sources reviewed.'}`,
        );
      }
    }
  }

  private marketReport(label: string): void {
    this.lines.push(`# Market scan: ${label}`);
    const scan = this.evidenceOf('market_scan');
    this.heading('Summary');
    const profiled = this.agents.filter((agent) => agent.question.facet === 'company_profile');
    this.lines.push(
      scan.length > 0
        ? `The company index holds companies matching "${label}"; the strongest matches are listed below, and ${profiled.length} of them were researched in depth.`
        : `No company of the index matched "${label}".`,
    );
    if (scan.length > 0) {
      this.heading('Strongest matches');
      scan.forEach((evidence, index) => this.lines.push(`${index + 1}. ${this.sentence(evidence)}`));
    }
    this.profileSection('Company profiles', profiled);
    this.landscapeSection();
  }

  private bulletSection(title: string, evidence: Evidence[]): void {
    const fresh = evidence.filter((item) => !this.shown.has(`${item.company.id}:${item.field}`));
    if (fresh.length === 0) return;
    this.heading(title);
    for (const item of fresh) {
      this.shown.add(`${item.company.id}:${item.field}`);
      this.lines.push(`- ${this.sentence(item)}`);
    }
  }

  private profileSection(title: string, agents: FinishedAgent[]): void {
    if (agents.length === 0) return;
    this.heading(title);
    for (const agent of agents) {
      const company = agent.question.company as Company;
      this.lines.push(`### ${company.name} (${company.domain})`, '');
      for (const evidence of agent.evidence) this.lines.push(`- ${this.sentence(evidence)}`);
      this.lines.push('');
    }
  }

  private landscapeSection(): void {
    const batches = this.agents.filter((agent) => agent.question.facet === 'landscape');
    if (batches.length === 0) return;
    this.heading('Market landscape');
    this.lines.push(`Further companies of the same landscape, researched in ${batches.length} batches:`, '');
    for (const batch of batches) {
      for (const company of batch.question.companies ?? []) {
        this.lines.push(`### ${company.name} (${company.domain})`, '');
        for (const evidence of batch.evidence.filter((item) => item.company === company))
          this.lines.push(`- ${this.sentence(evidence)}`);
        this.lines.push('');
      }
    }
  }
}

export function composeMarkdownReport(
  plan: ResearchPlan,
  agents: FinishedAgent[],
  brief: string,
  degradations: string[],
): MarkdownReport {
  return new MarkdownComposer(plan, agents).compose(brief, degradations);
}
