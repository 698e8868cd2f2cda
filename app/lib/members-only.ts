// The marker a /mypage page throws for a visitor (members-only.server.ts), which
// app/routes/mypage/members-layout.tsx's error boundary shows as the sign-in prompt (decision 002).
export const MYPAGE_VISITOR = 'mypage-visitor';
