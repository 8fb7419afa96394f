import { describe, expect, it } from 'vitest';
import { wayUp } from './route-error';

const Named = () => null;

describe('wayUp (a Not found page’s way back)', () => {
  it('is the nearest page above with a linked name of its own, never a name the server gives nor the page itself', () => {
    const crumbs = [
      { pathname: '/projects', crumb: 'Projects', isLink: false },
      { pathname: '/projects/1', crumb: Named, isLink: true },
      { pathname: '/projects/1/insights', crumb: 'Insights', isLink: true },
      { pathname: '/projects/1/insights/9', crumb: Named, isLink: true },
      { pathname: '/projects/1/insights/9/edit', crumb: 'Edit', isLink: true },
    ];
    expect(wayUp('/projects/1/insights/9/edit', crumbs)).toEqual({
      to: '/projects/1/insights',
      label: 'Back to Insights',
    });
    expect(wayUp('/projects/1/insights/9', crumbs.slice(0, 4))).toEqual({
      to: '/projects/1/insights',
      label: 'Back to Insights',
    });
  });

  it('leads to the organizations for a missing organization’s page, and nowhere from a missing project (its list is no page)', () => {
    const org = [
      { pathname: '/organizations/', crumb: 'Organizations', isLink: true },
      { pathname: '/organizations/x', crumb: Named, isLink: true },
      { pathname: '/organizations/x/batch-exports', crumb: 'Batch exports', isLink: true },
    ];
    expect(wayUp('/organizations/x/batch-exports', org)).toEqual({
      to: '/organizations',
      label: 'Back to Organizations',
    });
    expect(
      wayUp('/projects/99', [
        { pathname: '/projects', crumb: 'Projects', isLink: false },
        { pathname: '/projects/99', crumb: Named, isLink: true },
      ]),
    ).toBeNull();
  });
});
