// The role line as assistive tech and the e2e tests find it: a status only on followers (the page's own status
// region stays unique in a single tab), an alert with a reload button when the tab must reload.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { TabRole, tabRole } from '../../worker-client/tab-role';
import { TabRoleStatus } from './TabRoleStatus';

const render = () => renderToString(createElement(TabRoleStatus));

afterEach(() => tabRole.set({ role: TabRole.Connecting }));

describe('TabRoleStatus', () => {
  it('says nothing before the role is known', () => {
    expect(render()).toBe('');
  });

  it('a follower announces that the control plane runs in another tab', () => {
    tabRole.set({ role: TabRole.Follower });
    expect(render()).toContain('role="status" aria-label="Control plane runs in another tab"');
  });

  it('the leader notes it runs the control plane, without a second status region', () => {
    tabRole.set({ role: TabRole.Leader });
    const html = render();
    expect(html).toContain('role="note" aria-label="Control plane runs in this tab"');
    expect(html).not.toContain('role="status"');
  });

  it('a tab that must reload says why and offers the reload', () => {
    tabRole.set({ role: TabRole.Reload, message: 'A newer version of kubeplay opened in another tab. Reload this tab to use it.' });
    const html = render();
    expect(html).toContain('role="alert" aria-label="A newer version of kubeplay opened in another tab. Reload this tab to use it."');
    expect(html).toContain('Reload tab</button>');
  });
});
