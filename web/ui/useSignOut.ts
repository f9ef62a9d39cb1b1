import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { MESSAGES } from '../../common/messages.ts';
import { useLogout } from '../api/auth.ts';
import { translateMessage } from '../i18n/index.ts';

/** Log out and go to /auth/login; the token is forgotten at once, even if the server cannot be reached. */
export function useSignOut() {
  const logout = useLogout();
  const navigate = useNavigate();
  return {
    signOut: () => {
      navigate('/auth/login', { replace: true });
      logout.mutate();
      toast.success(translateMessage(MESSAGES.auth.loggedOut));
    },
    pending: logout.isPending,
  };
}
