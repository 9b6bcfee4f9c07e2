import { Bounce, ToastContainer } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';

/** Top-right toasts with the spec's defaults: auto-close after 5 s, pause on hover. */
export default function ToastContainerLazy() {
  return <ToastContainer position="top-right" autoClose={5000} pauseOnHover transition={Bounce} theme="colored" />;
}
