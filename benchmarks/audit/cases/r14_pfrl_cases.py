"""Round 14: pfrl (RL building blocks: policy heads returning distributions, Q-functions
returning action values, an empirical normalizer with counters, noisy layers, distributional
projections, value losses, IQN quantile losses and conjugate gradient for TRPO)."""
import torch

from . import case


@case("softmax_policy")
def _():
    from pfrl.policies import SoftmaxCategoricalHead

    return SoftmaxCategoricalHead(), (torch.randn(5, 3),), {}


@case("gaussian_policy", grad=True)
def _():
    from pfrl.policies import GaussianHeadWithStateIndependentCovariance

    head = GaussianHeadWithStateIndependentCovariance(action_size=2, var_type="diagonal",
                                                      var_func=torch.nn.functional.softplus)
    return head, (torch.randn(5, 2),), {}


@case("fc_state_q_discrete")
def _():
    from pfrl.q_functions import FCStateQFunctionWithDiscreteAction

    q = FCStateQFunctionWithDiscreteAction(4, 3, n_hidden_channels=8, n_hidden_layers=1)
    return q, (torch.randn(5, 4),), {}


@case("distributional_dueling_dqn")
def _():
    from pfrl.q_functions import DistributionalDuelingDQN

    q = DistributionalDuelingDQN(n_actions=3, n_atoms=5, v_min=-1.0, v_max=1.0, n_input_channels=1)
    return q, (torch.randn(2, 1, 84, 84),), {}


@case("empirical_normalization")
def _():
    from pfrl.nn import EmpiricalNormalization

    return EmpiricalNormalization(shape=(3,), until=100, clip_threshold=5.0), (torch.randn(6, 3),), {}


@case("factorized_noisy_linear")
def _():
    from pfrl.nn import FactorizedNoisyLinear

    return FactorizedNoisyLinear(torch.nn.Linear(4, 3)), (torch.randn(5, 4),), {}


@case("categorical_projection")
def _():
    from pfrl.agents.categorical_dqn import _apply_categorical_projection

    z = torch.linspace(-1.0, 1.0, 5)
    y = torch.randn(4, 5).clamp(-1.5, 1.5)
    return _apply_categorical_projection, (y, torch.softmax(torch.randn(4, 5), -1), z), {}


@case("dqn_weighted_value_loss", grad=True)
def _():
    from pfrl.agents.dqn import compute_weighted_value_loss

    y = torch.randn(6, requires_grad=True)
    return compute_weighted_value_loss, (y, torch.randn(6), torch.rand(6)), {"clip_delta": True, "batch_accumulator": "sum"}


@case("iqn_quantile_loss", grad=True)
def _():
    from pfrl.agents.iqn import compute_eltwise_huber_quantile_loss

    return compute_eltwise_huber_quantile_loss, (torch.randn(4, 5, requires_grad=True), torch.randn(4, 6), torch.rand(4, 5)), {}


@case("conjugate_gradient")
def _():
    from pfrl.utils.conjugate_gradient import conjugate_gradient

    a = torch.randn(4, 4)
    a = a @ a.T + 4 * torch.eye(4)
    return conjugate_gradient, (lambda v: a @ v, torch.randn(4)), {"max_iter": 6}


@case("mode_of_distribution")
def _():
    from pfrl.utils.mode_of_distribution import mode_of_distribution

    return mode_of_distribution, (torch.distributions.Categorical(logits=torch.randn(5, 3)),), {}
