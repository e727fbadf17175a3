/**
 * A caller's SelfSubjectAccessReview through client-node: may this identity make this
 * read? The client-node side of the read cache's AccessReviewer port (cache/cache-ports.ts);
 * the cache's short-lived answer memory sits above it (cache/review-cache.ts).
 */
import { FIELD_MANAGER, type KubeApis } from './api-clients.js';
import type { AccessReviewer, ReadAttributes } from './cache/cache-ports.js';

/** A SelfSubjectAccessReview with one identity's client: may it make this read? */
export class ClientNodeAccessReviewer implements AccessReviewer {
  constructor(private readonly apis: KubeApis) {}

  async mayRead(attributes: ReadAttributes): Promise<boolean> {
    const review = await this.apis.authorization.createSelfSubjectAccessReview({
      fieldManager: FIELD_MANAGER,
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { ...attributes } },
      },
    });
    return review.status?.allowed === true && review.status.denied !== true;
  }
}
