import { COMMANDS } from './flags.js';
const PROGRAM = 'agent-manager';
/** The default as `--help` shows it: `false`, `""`, `":8080"`. */
export function formatDefault(def) {
    return typeof def.default === 'boolean' ? String(def.default) : JSON.stringify(def.default);
}
/** `-v, --verbose`, `--seed, --no-seed`, `--listen <address>`. */
export function formatFlagName(def) {
    const short = def.short ? `-${def.short}, ` : '';
    if (def.type === 'bool')
        return `${short}--${def.name}${def.default === true ? `, --no-${def.name}` : ''}`;
    const placeholder = def.type === 'enum' && def.choices ? def.choices.join('|') : def.type;
    return `${short}--${def.name} <${placeholder}>`;
}
/** The help text of one topic, ending in a newline. */
export function helpText(topic) {
    return topic === 'root' ? rootHelp() : commandHelp(topic);
}
function rootHelp() {
    const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length), 'help'.length) + 3;
    const commands = [
        ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`),
        `  ${'help'.padEnd(width)}Print the help of a command.`,
    ];
    return [
        `${PROGRAM} manages agents on a Kubernetes agent platform: Flux HelmReleases of the`,
        'agent chart, over a REST API (/api/v1) and an MCP endpoint (/mcp).',
        '',
        'Usage:',
        `  ${PROGRAM} <command> [flags]`,
        '',
        'Commands:',
        ...commands,
        '',
        'Flags:',
        '  -h, --help      Print this help.',
        '  -v, --verbose   Log at debug level (any command that logs).',
        '      --version   Print the version.',
        '',
        `Run "${PROGRAM} <command> --help" for the flags of a command.`,
        '',
    ].join('\n');
}
function commandHelp(name) {
    const command = COMMANDS[name];
    const flags = command.flags;
    const lines = [command.summary, '', 'Usage:', `  ${PROGRAM} ${name}${flags.length ? ' [flags]' : ''}`, ''];
    if (flags.length) {
        lines.push('Every flag can also be set through the environment variable named under it.', 'A flag wins over its variable; an empty variable counts as unset.', '');
    }
    const groups = [...new Set(flags.map((d) => d.group))];
    for (const group of groups) {
        lines.push(`${group}:`);
        for (const def of flags.filter((d) => d.group === group)) {
            lines.push(`  ${formatFlagName(def)}`, `        ${def.help}`, `        env ${def.env}, default ${formatDefault(def)}${def.secret ? ' (secret: never logged)' : ''}`);
        }
        lines.push('');
    }
    lines.push('Help:', '  -h, --help', '        Print this help.', '');
    return lines.join('\n');
}
//# sourceMappingURL=help.js.map