//! Many workers claiming from one store at once.

use std::future::Future;

/// Runs `workers` tasks that each call `take` until it takes nothing; every id taken, by all.
pub async fn claimed_by<S, F, Fut>(store: S, workers: usize, take: F) -> Vec<String>
where
    S: Clone + Send + 'static,
    F: Fn(S) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = Vec<String>> + Send,
{
    let tasks: Vec<_> = (0..workers)
        .map(|_| {
            let (store, take) = (store.clone(), take.clone());
            tokio::spawn(async move {
                let mut mine = Vec::new();
                loop {
                    let taken = take(store.clone()).await;
                    if taken.is_empty() {
                        return mine;
                    }
                    mine.extend(taken);
                }
            })
        })
        .collect();
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.unwrap());
    }
    all
}
