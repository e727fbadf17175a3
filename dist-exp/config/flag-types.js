/**
 * The shape of one command-line flag and of the values flags parse to. The flag tables
 * (flags.ts) are plain data of this shape, so `--help`, the parser and a docs generator
 * all read the same rows.
 */
export {};
//# sourceMappingURL=flag-types.js.map