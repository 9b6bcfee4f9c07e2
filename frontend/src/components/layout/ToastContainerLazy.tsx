import { Bounce, ToastContainer } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';
import { useLanguage } from '@/hooks/use-language';

/** Bottom-right toasts (bottom-left in right-to-left pages; across the bottom on phones), where
 * they cover neither the header, the admin bar, the hero nor a form's first fields, with the
 * spec's defaults: auto-close after 5 s, pause on hover. */
export default function ToastContainerLazy() {
  const rtl = useLanguage().language.dir === 'rtl';
  return (
    <ToastContainer
      position={rtl ? 'bottom-left' : 'bottom-right'}
      rtl={rtl}
      autoClose={5000}
      pauseOnHover
      transition={Bounce}
      theme="colored"
    />
  );
}
