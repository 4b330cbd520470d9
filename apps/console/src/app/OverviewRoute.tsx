import { DemoPanel } from '../features/demo';
import { OverviewPage } from '../features/overview';
import { useCurrentUser } from './currentUser';

export function OverviewRoute() {
  const me = useCurrentUser();
  return (
    <>
      <OverviewPage currentUser={me} />
      {/* Where the demo banner of the other pages leads: what the demo holds, and its delete. */}
      <DemoPanel administrator={me.administrator} />
    </>
  );
}
