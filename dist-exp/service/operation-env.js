export {};
//# sourceMappingURL=operation-env.js.map