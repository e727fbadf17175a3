export {};
//# sourceMappingURL=settings.js.map