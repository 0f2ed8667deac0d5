/** GET /plans/listpublic answer item: what the sign-up page shows of an active plan, nothing more. */
export interface PublicPlan {
  id: number;
  name: string;
  value: number;
  maxUsers: number;
  maxConnections: number;
  trial: boolean;
  trialDays: number;
}
