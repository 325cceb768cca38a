import { Agent } from "undici";

export interface KubeResponse {
  status: number;
  body: unknown;
}

/** A call the server refused: its status and its body (a Status with `details.causes` for a 422). */
export class KubeError extends Error {
  override name = "KubeError";
  readonly status: number;
  readonly body: unknown;
  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/**
 * Raw JSON calls to the devcluster. The dev loop applies CRDs and samples as plain JSON:
 * client-node's typed serializer drops the x-kubernetes-* keys of CRD schemas.
 */
export class KubeHttp {
  private readonly url: string;
  private readonly token: string;
  private readonly dispatcher: Agent;

  constructor(options: { url: string; token: string; caCert?: string }) {
    this.url = options.url;
    this.token = options.token;
    this.dispatcher = new Agent({ connect: options.caCert ? { ca: options.caCert } : {} });
  }

  async call(
    method: string,
    path: string,
    body?: unknown,
    contentType = "application/json",
  ): Promise<KubeResponse> {
    const res = await this.dispatcher.request({
      origin: this.url,
      path,
      method: method as "GET",
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": contentType }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    let parsed: unknown = text;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text for the error message
    }
    return { status: res.statusCode, body: parsed };
  }

  /** Like `call`, but a status outside 2xx (and outside `allowed`) throws with the server's message. */
  async expect(
    method: string,
    path: string,
    body?: unknown,
    options: { allowed?: number[]; contentType?: string } = {},
  ): Promise<KubeResponse> {
    const res = await this.call(method, path, body, options.contentType);
    if ((res.status >= 200 && res.status < 300) || options.allowed?.includes(res.status)) return res;
    const message = (res.body as { message?: string } | undefined)?.message ?? JSON.stringify(res.body);
    throw new KubeError(`${method} ${path}: ${res.status} ${message}`, res.status, res.body);
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}
