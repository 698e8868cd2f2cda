// Hydration. A mount failure is logged as the specification says and raised again.
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { installChunkErrorRecovery } from './lib/client-recovery';

installChunkErrorRecovery();

try {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
      {
        onRecoverableError(error) {
          console.warn('Recoverable error while hydrating:', error);
        },
        // Errors during hydration arrive here, after hydrateRoot has returned.
        onUncaughtError(error) {
          console.error('Error while mounting app:', error);
        },
      },
    );
  });
} catch (error) {
  console.error('Error while mounting app:', error);
  throw error;
}
