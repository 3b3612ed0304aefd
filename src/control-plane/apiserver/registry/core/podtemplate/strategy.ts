// PodTemplate strategy (pkg/registry/core/podtemplate/strategy.go): a pod template on its own, validated like any
// template; generation follows template changes.
import type { ResourceType } from '../../../../../shared/api/resources';
import type { ResourceStrategy } from '../../../types';
import { defaultPodTemplate } from '../../generic/podspec/defaults';
import { validatePodTemplateSpec } from '../../generic/podspec/validation';
import { defineStrategy } from '../../generic/strategy';
import { semanticEqual } from '../../generic/util';

export function podTemplateStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: (pt) => defaultPodTemplate(pt.template),
    generationChanged: (pt, old) => !semanticEqual(pt.template, old.template),
    validateSpec: (pt) => validatePodTemplateSpec(pt.template, 'template'),
  });
}
