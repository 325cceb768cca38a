// What the deployments-*.test.ts files share: the representation and its names.

export interface DeploymentRep {
  name: string;
  description: string | null;
  locked: boolean;
  server_tag_scope: string;
  links: Array<{ rel: string; href: string }>;
  actions: Array<{ rel: string }>;
  inputs?: Array<{ name: string; value: string }>;
}

export const names = (list: DeploymentRep[]) => list.map((d) => d.name);
