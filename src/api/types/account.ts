// Wire types of the user (interface 2.4, 4.4) and of the error bodies every endpoint may answer (interface 2.11, 7).

export interface User {
  user_id: string;
  email: string;
  available_credits: number;
  organization_id: string | null;
  organization_name: string | null;
  organization_slug: string | null;
}

export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** Body of a 422 answer. */
export interface ValidationErrorBody {
  detail: ValidationIssue[];
}

/** `detail` of a 402 answer of task creation. */
export interface PaymentRequiredDetail {
  error: 'plan_required' | 'insufficient_credits' | 'payment_failed' | (string & {});
  action?: string;
  required_credits?: number;
  available_credits?: number;
}
