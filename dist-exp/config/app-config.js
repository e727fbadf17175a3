export {};
//# sourceMappingURL=app-config.js.map