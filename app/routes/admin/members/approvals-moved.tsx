// /admin/members/approvals: the approvals page's old address (it was the coin adjustments' page under
// 会員); 承認待ち is its own page now, at /admin/approvals. A bookmark or an open tab is sent there.
import { redirect } from 'react-router';

export const loader = () => redirect('/admin/approvals', 301);
