/**
 * Deeply frozen values: the read cache freezes every object it holds (a change arrives
 * as a new object, never as an edit), so anything derived from a frozen object can be
 * kept by that object's identity and handed to every later reader, frozen too so that
 * no reader can change what the next one gets.
 */
/** `value` and everything inside it frozen, in place; already frozen parts are not walked again. */
export function deepFreeze(value) {
    if (value && typeof value === 'object' && !Object.isFrozen(value)) {
        Object.freeze(value);
        for (const inner of Object.values(value))
            deepFreeze(inner);
    }
    return value;
}
/** True for an object that can no longer change at its top level (see deepFreeze). */
export function isFrozenObject(value) {
    return typeof value === 'object' && value !== null && Object.isFrozen(value);
}
//# sourceMappingURL=frozen.js.map