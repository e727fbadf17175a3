/** A SelfSubjectAccessReview with one identity's client: may it make this read? */
export class ClientNodeAccessReviewer {
    apis;
    constructor(apis) {
        this.apis = apis;
    }
    async mayRead(attributes) {
        const review = await this.apis.authorization.createSelfSubjectAccessReview({
            body: {
                apiVersion: 'authorization.k8s.io/v1',
                kind: 'SelfSubjectAccessReview',
                spec: { resourceAttributes: { ...attributes } },
            },
        });
        return review.status?.allowed === true && review.status.denied !== true;
    }
}
//# sourceMappingURL=access-review.js.map