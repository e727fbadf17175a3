export const Verdict = {
    Ready: 'ready',
    Progressing: 'progressing',
    Failed: 'failed',
    Unknown: 'unknown',
};
//# sourceMappingURL=types.js.map