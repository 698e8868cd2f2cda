// The admin module's door (operators: staff roles, permissions, the audit log). Being built for issue 12.
export {};
