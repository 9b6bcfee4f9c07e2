import { Bounce, ToastContainer } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';
import { useLanguage } from '@/hooks/use-language';

/** Top-right toasts (top-left in right-to-left pages) with the spec's defaults: auto-close
 * after 5 s, pause on hover. */
export default function ToastContainerLazy() {
  const rtl = useLanguage().language.dir === 'rtl';
  return (
    <ToastContainer
      position={rtl ? 'top-left' : 'top-right'}
      rtl={rtl}
      autoClose={5000}
      pauseOnHover
      transition={Bounce}
      theme="colored"
    />
  );
}
