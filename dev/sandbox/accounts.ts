// Seeded accounts, organizations and workspaces: bearer tokens, plans, credit balances, the user object of
// GET /v1/user, and who may read whose tasks (same organization) or tables (same workspace).

export type Plan = 'pro' | 'free';

export interface Organization {
  id: string;
  name: string;
  slug: string;
}

export interface Account {
  /** Seed name used by the control API, e.g. "sandbox-pro". */
  name: string;
  token: string;
  userId: string;
  email: string;
  plan: Plan;
  credits: number;
  organization: Organization | null;
  /** Tables and templates belong to a workspace: the organization's, or a personal one. */
  workspaceId: string;
}

const SANDBOX_LABS: Organization = { id: 'org_sandbox_labs', name: 'Sandbox Labs', slug: 'sandbox-labs' };
const RIVAL_CORP: Organization = { id: 'org_rival_corp', name: 'Rival Corp', slug: 'rival-corp' };
const FREE_TIER_CLUB: Organization = { id: 'org_free_tier_club', name: 'Free Tier Club', slug: 'free-tier-club' };
const LOW_BALANCE: Organization = { id: 'org_low_balance', name: 'Low Balance Ltd', slug: 'low-balance' };

function seedAccounts(): Account[] {
  return [
    {
      name: 'sandbox-pro',
      token: 'sbx_pro_token',
      userId: 'usr_sandbox_pro',
      email: 'pro@sandbox.example.com',
      plan: 'pro',
      credits: 500,
      organization: SANDBOX_LABS,
      workspaceId: 'ws_sandbox_labs',
    },
    {
      name: 'sandbox-pro-2',
      token: 'sbx_pro2_token',
      userId: 'usr_sandbox_pro_2',
      email: 'pro2@sandbox.example.com',
      plan: 'pro',
      credits: 500,
      organization: SANDBOX_LABS,
      workspaceId: 'ws_sandbox_labs',
    },
    {
      name: 'sandbox-solo',
      token: 'sbx_solo_token',
      userId: 'usr_sandbox_solo',
      email: 'solo@sandbox.example.com',
      plan: 'pro',
      credits: 200,
      organization: null,
      workspaceId: 'ws_sandbox_solo',
    },
    {
      name: 'sandbox-free',
      token: 'sbx_free_token',
      userId: 'usr_sandbox_free',
      email: 'free@sandbox.example.com',
      plan: 'free',
      credits: 100,
      organization: FREE_TIER_CLUB,
      workspaceId: 'ws_free_tier_club',
    },
    {
      name: 'sandbox-low',
      token: 'sbx_low_token',
      userId: 'usr_sandbox_low',
      email: 'low@sandbox.example.com',
      plan: 'pro',
      credits: 12,
      organization: LOW_BALANCE,
      workspaceId: 'ws_low_balance',
    },
    {
      name: 'sandbox-rival',
      token: 'sbx_rival_token',
      userId: 'usr_sandbox_rival',
      email: 'rival@rival.example.com',
      plan: 'pro',
      credits: 500,
      organization: RIVAL_CORP,
      workspaceId: 'ws_rival_corp',
    },
  ];
}

export class Accounts {
  private accounts: Account[] = seedAccounts();

  reset(): void {
    this.accounts = seedAccounts();
  }

  all(): readonly Account[] {
    return this.accounts;
  }

  byToken(token: string): Account | undefined {
    return this.accounts.find((account) => account.token === token);
  }

  byName(name: string): Account | undefined {
    return this.accounts.find((account) => account.name === name || account.userId === name);
  }
}

/** The account a bearer header authenticates, or undefined (missing header, no `Bearer ` prefix, unknown token). */
export function authenticate(accounts: Accounts, authorization: string | undefined): Account | undefined {
  const match = /^Bearer (\S+)$/.exec(authorization?.trim() ?? '');
  return match ? accounts.byToken(match[1]) : undefined;
}

/** GET /v1/user body (2.4). */
export function userObject(account: Account): Record<string, unknown> {
  return {
    user_id: account.userId,
    email: account.email,
    available_credits: account.credits,
    organization_id: account.organization?.id ?? null,
    organization_name: account.organization?.name ?? null,
    organization_slug: account.organization?.slug ?? null,
  };
}

/** A task is readable by its owner and by members of the owner's organization. */
export function canReadTaskOf(reader: Account, owner: Account): boolean {
  if (reader.userId === owner.userId) return true;
  return (
    reader.organization !== null && owner.organization !== null && reader.organization.id === owner.organization.id
  );
}
