import { describe, expect, it } from 'vitest';
import { modelConfigViolation } from './write-checks.js';

describe('modelConfigViolation', () => {
  it('with no ModelConfig in the namespace, names the namespace and says what to do when it does not exist', () => {
    expect(modelConfigViolation('ghost', 'default-model-config', [])).toBe(
      'modelConfig "default-model-config" does not exist in namespace ghost: there is no ModelConfig in namespace ghost; ' +
      'if the namespace does not exist, create it or point --kagent-namespace or --managed-namespaces at the namespace kagent ' +
      'runs in, otherwise ask a platform admin to provision ModelConfigs there',
    );
  });

  it('lists the valid ones when the name is wrong', () => {
    const configs = [{ apiVersion: 'kagent.dev/v1alpha2', kind: 'ModelConfig', metadata: { name: 'b' } }, { apiVersion: 'kagent.dev/v1alpha2', kind: 'ModelConfig', metadata: { name: 'a' } }];
    expect(modelConfigViolation('kagent', 'c', configs)).toBe('modelConfig "c" does not exist in namespace kagent; valid: a, b');
  });
});
