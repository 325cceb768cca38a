// What the alert-specs-*.test.ts files share: a valid alert spec and its representation.

export const good = {
  name: "disk low",
  condition: "<",
  duration: "15",
  file: "df-root/df_complex-free",
  variable: "value",
  threshold: "1000000",
  escalation_name: "warning",
};

export interface AlertSpecRep {
  name: string;
  description: string | null;
  duration: number;
  threshold: string;
  condition: string;
  file: string;
  variable: string;
  escalation_name: string | null;
  vote_tag: string | null;
  vote_type: string | null;
  created_at: string;
  updated_at: string;
  links: { rel: string; href: string }[];
  actions: { rel: string }[];
}

export const TIMESTAMP = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} \+0000$/;
export const hrefOf = (rep: AlertSpecRep, rel: string) => rep.links.find((l) => l.rel === rel)?.href;
