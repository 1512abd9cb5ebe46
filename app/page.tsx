import { redirect } from 'next/navigation';
import { can } from '@/lib/auth/roles.ts';
import { currentUser } from './_server/session.ts';

// Annotators label blind and may not open the dashboard (it shows rewards): they start on
// their calibration sets. Everyone else starts on the environments.
export default async function Home(): Promise<never> {
  const user = await currentUser();
  redirect(user && !can(user.role, 'dashboard.read') && can(user.role, 'calibration.label') ? '/calibration' : '/environments');
}
