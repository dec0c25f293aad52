"""stable-baselines3 (round 11): RL policy networks (actor-critic with Gaussian and categorical
action distributions, SAC's squashed Gaussian actor, DQN's Q-network), built from gymnasium spaces."""
import torch

from . import case


def _ac_policy(action_space):
    import numpy as np
    from gymnasium import spaces
    from stable_baselines3.common.policies import ActorCriticPolicy

    obs_space = spaces.Box(-1.0, 1.0, (6,), dtype=np.float32)
    return ActorCriticPolicy(obs_space, action_space, lambda _: 3e-4, net_arch=[16, 16])


@case("ppo_policy_box")
def _():
    import numpy as np
    from gymnasium import spaces

    return _ac_policy(spaces.Box(-1.0, 1.0, (2,), dtype=np.float32)), (torch.randn(4, 6),), {}


@case("ppo_policy_discrete_evaluate")
def _():
    from gymnasium import spaces

    policy = _ac_policy(spaces.Discrete(3))
    return policy.evaluate_actions, (torch.randn(4, 6), torch.randint(0, 3, (4,))), {}


@case("sac_actor")
def _():
    import numpy as np
    from gymnasium import spaces
    from stable_baselines3.sac.policies import SACPolicy

    policy = SACPolicy(spaces.Box(-1.0, 1.0, (6,), dtype=np.float32), spaces.Box(-1.0, 1.0, (2,), dtype=np.float32),
                       lambda _: 3e-4, net_arch=[16])
    return policy.actor.action_log_prob, (torch.randn(4, 6),), {}


@case("dqn_q_net_predict")
def _():
    import numpy as np
    from gymnasium import spaces
    from stable_baselines3.dqn.policies import DQNPolicy

    policy = DQNPolicy(spaces.Box(-1.0, 1.0, (6,), dtype=np.float32), spaces.Discrete(4), lambda _: 1e-3,
                       net_arch=[16])
    return policy.q_net._predict, (torch.randn(4, 6),), {"deterministic": True}
